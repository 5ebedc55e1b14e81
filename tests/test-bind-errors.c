/*
** tests/test-bind-errors.c — SELECTs the binder must refuse, each with
** PostgreSQL's SQLSTATE, message and position (the 1-based character
** position a client sees, as sql_error_position computes it).
**
** A case names where the error points by a piece of its SQL text: the
** n-th occurrence of zAt (first when n is 0) is where the position must
** be. Where PostgreSQL reports no position, starq still points at the
** construct, and the case says where.
*/
#include "../catalog/catalog.h"
#include "../parser/parser.h"
#include "../planner/bind.h"
#include "test.h"
#include "test-bind.h"

typedef struct be_case be_case;
struct be_case {
  const char *zSql;
  const char *zState;
  const char *zMsg;        /* the whole message */
  const char *zAt;         /* where it points, or NULL for no position */
  int nth;                 /* which occurrence of zAt (1-based; 0 = first) */
};

static const be_case be_aCase[] = {
  /* ---- names ---- */
  {"select 1 from nosuch", "42P01", "relation \"nosuch\" does not exist", "nosuch", 0},
  {"select 1 from lineorder l, date l", "42712", "table name \"l\" specified more than once",
   "date", 0},
  {"select 1 from lineorder, lineorder", "42712",
   "table name \"lineorder\" specified more than once", "lineorder", 2},
  {"select 1 from date lineorder, lineorder", "42712",
   "table name \"lineorder\" specified more than once", "lineorder", 2},
  {"select foo from lineorder", "42703", "column \"foo\" does not exist", "foo", 0},
  {"select l.foo from lineorder l", "42703", "column l.foo does not exist", "l.foo", 0},
  {"select d_year from date a, date b", "42702", "column reference \"d_year\" is ambiguous",
   "d_year", 0},
  {"select x.d_year from date", "42P01", "missing FROM-clause entry for table \"x\"", "x.", 0},
  {"select lineorder.lo_tax from lineorder l", "42P01",
   "invalid reference to FROM-clause entry for table \"lineorder\"", "lineorder.", 0},
  {"select 1 from date d join lineorder on lo_orderdate = z.d_datekey", "42P01",
   "missing FROM-clause entry for table \"z\"", "z.d_", 0},
  {"select 1 from customer, date join lineorder on lo_custkey = c_custkey", "42703",
   "column \"c_custkey\" does not exist", "c_custkey", 0},
  {"select 1 from customer c, date join lineorder on lo_custkey = c.c_custkey", "42P01",
   "invalid reference to FROM-clause entry for table \"c\"", "c.c_", 0},
  {"select 1 from date join lineorder on lo_orderdate = d_datekey and p_size = 1"
   " join part on lo_partkey = p_partkey", "42703", "column \"p_size\" does not exist", "p_size", 0},
  {"select *", "42601", "SELECT * with no tables specified is not valid", "*", 0},
  {"select z.* from lineorder", "42P01", "missing FROM-clause entry for table \"z\"", "z.*", 0},
  {"select 'é', foo from t_all", "42703", "column \"foo\" does not exist", "foo", 0},

  /* ---- types ---- */
  {"select 1 from customer where c_name = 1", "42883",
   "operator does not exist: character varying = integer", "=", 0},
  {"select 1 from date where d_datekey = 19970101", "42883",
   "operator does not exist: date = integer", "=", 0},
  {"select 1 from date where d_datekey = '1997-13-01'", "22008",
   "date/time field value out of range: \"1997-13-01\"", "'1997", 0},
  {"select 1 from date where d_datekey < '1997-02-29'", "22008",
   "date/time field value out of range: \"1997-02-29\"", "'1997", 0},
  {"select 1 from date where d_datekey < '1997-1x-01'", "22007",
   "invalid input syntax for type date: \"1997-1x-01\"", "'1997", 0},
  {"select '0000-01-01'::date", "22008", "date/time field value out of range: \"0000-01-01\"",
   "'0000", 0},
  {"select 1 from lineorder where lo_quantity", "42804",
   "argument of WHERE must be type boolean, not type integer", "lo_quantity", 0},
  {"select 1 from lineorder having lo_quantity", "42804",
   "argument of HAVING must be type boolean, not type integer", "lo_quantity", 0},
  {"select 1 from date d join lineorder on lo_quantity + 1", "42804",
   "argument of JOIN/ON must be type boolean, not type integer", "+", 0},
  {"select case when 1 then 2 end", "42804",
   "argument of CASE/WHEN must be type boolean, not type integer", "1", 0},
  {"select case when true then 1 else 'x'::text end", "42804",
   "CASE types text and integer cannot be matched", "1", 0},
  {"select case when true then 1 when false then c_name end from customer", "42804",
   "CASE types integer and character varying cannot be matched", "c_name", 0},
  {"select case when true then 1 else 'x' end", "22P02",
   "invalid input syntax for type integer: \"x\"", "'x'", 0},
  {"select lo_quantity and true from lineorder", "42804",
   "argument of AND must be type boolean, not type integer", "lo_quantity", 0},
  {"select true or 'maybe'", "22P02", "invalid input syntax for type boolean: \"maybe\"",
   "'maybe'", 0},
  {"select not lo_tax from lineorder", "42804",
   "argument of NOT must be type boolean, not type integer", "lo_tax", 0},
  {"select lo_tax like 'a%' from lineorder", "42883", "operator does not exist: integer ~~ unknown",
   "like", 0},
  {"select 1 from lineorder where lo_shipmode not like 5", "42883",
   "operator does not exist: character varying !~~ integer", "not", 0},
  {"select c_name + 1 from customer", "42883",
   "operator does not exist: character varying + integer", "+", 0},
  {"select c_name + 'x' from customer", "42883",
   "operator does not exist: character varying + unknown", "+", 0},
  {"select -c_name from customer", "42883", "operator does not exist: - character varying", "-",
   0},
  {"select d_datekey * 2 from date", "42883", "operator does not exist: date * integer", "*", 0},
  {"select d % s from t_all", "42883", "operator does not exist: double precision % smallint", "%",
   0},
  {"select 1 + dt from t_all where dt - 1.5 > dt", "42883",
   "operator does not exist: date - numeric", "- 1.5", 0},
  {"select date '1997-02-30'", "22008", "date/time field value out of range: \"1997-02-30\"",
   "date", 0},                     /* PostgreSQL points at the string, starq at DATE */
  {"select date 'yesterday'", "22007", "invalid input syntax for type date: \"yesterday\"", "date",
   0},
  {"select null + null", "42725", "operator is not unique: unknown + unknown", "+", 0},
  {"select cast(d_datekey as integer) from date", "42846", "cannot cast type date to integer",
   "cast", 0},
  {"select d_year::date from date", "42846", "cannot cast type integer to date", "::", 0},
  {"select 1.5::date", "42846", "cannot cast type numeric to date", "::", 0},
  {"select 'abc'::integer", "22P02", "invalid input syntax for type integer: \"abc\"", "'abc'", 0},
  {"select 1 from t_all where s = '40000'", "22003",
   "value \"40000\" is out of range for type smallint", "'40000'", 0},
  {"select 1 from t_all where b = '1.5'", "22P02", "invalid input syntax for type bigint: \"1.5\"",
   "'1.5'", 0},
  {"select 99999999999999999999", "22003",
   "value \"99999999999999999999\" is out of range for type bigint", "9999", 0},
  {"select 1.0000000000000000001", "22003", NULL, "1.0", 0},
  {"select 1/0", "22012", "division by zero", "/", 0},
  {"select 1 % (2 - 2)", "22012", "division by zero", "%", 0},
  {"select 1.5 / (0.5 - 0.5) from t_all", "22012", "division by zero", "/", 0},
  {"select lo_quantity between 'a' and 5 from lineorder", "22P02",
   "invalid input syntax for type integer: \"a\"", "'a'", 0},
  {"select 1 from lineorder where lo_orderdate between '1997-01-01' and 5", "42883",
   "operator does not exist: date <= integer", "between", 0},
  {"select 1 from lineorder where lo_orderdate not between 5 and 6", "42883",
   "operator does not exist: date < integer", "not", 0},
  {"select c_city in (1, 2) from customer", "42883", "operator does not exist: character = integer",
   "in (", 0},
  {"select c_city not in ('a', 2) from customer", "42883",
   "operator does not exist: character <> integer", "not", 0},
  {"select m4 * m4 * m4 * m4 * m4 from t_all", "0A000", NULL, "*", 4},

  /* ---- functions and aggregates ---- */
  {"select foo(1)", "42883", "function foo(integer) does not exist", "foo", 0},
  {"select foo(1, 'a', null, d_year) from date", "42883",
   "function foo(integer, unknown, unknown, integer) does not exist", "foo", 0},
  {"select sum(c_name) from customer", "42883", "function sum(character varying) does not exist",
   "sum", 0},
  {"select avg(d_datekey) from date", "42883", "function avg(date) does not exist", "avg", 0},
  {"select min(true)", "42883", "function min(boolean) does not exist", "min", 0},
  {"select sum(1, 2)", "42883", "function sum(integer, integer) does not exist", "sum", 0},
  {"select sum(*) from date", "42883", "function sum(*) does not exist", "sum", 0},
  {"select sum(null)", "42725", "function sum(unknown) is not unique", "sum", 0},
  {"select 1 from lineorder where sum(lo_tax) > 1", "42803",
   "aggregate functions are not allowed in WHERE", "sum", 0},
  {"select 1 from date join lineorder on count(*) > 0", "42803",
   "aggregate functions are not allowed in JOIN conditions", "count", 0},
  {"select sum(lo_tax) from lineorder group by sum(lo_tax)", "42803",
   "aggregate functions are not allowed in GROUP BY", "sum", 2},
  {"select sum(lo_tax) from lineorder group by 1", "42803",
   "aggregate functions are not allowed in GROUP BY", "sum", 0},
  {"select sum(sum(lo_tax)) from lineorder", "42803", "aggregate function calls cannot be nested",
   "sum", 2},
  {"select count(lo_tax + max(lo_tax)) from lineorder", "42803",
   "aggregate function calls cannot be nested", "max", 0},
  {"select lo_tax, sum(lo_revenue) from lineorder", "42803",
   "column \"lineorder.lo_tax\" must appear in the GROUP BY clause or be used in an aggregate"
   " function", "lo_tax", 0},
  {"select d_year, sum(lo_revenue) from lineorder, date where lo_orderdate = d_datekey"
   " group by d_month", "42803",
   "column \"date.d_year\" must appear in the GROUP BY clause or be used in an aggregate function",
   "d_year", 0},
  {"select sum(lo_revenue) from lineorder l group by lo_tax order by lo_discount", "42803",
   "column \"l.lo_discount\" must appear in the GROUP BY clause or be used in an aggregate"
   " function", "lo_discount", 0},
  {"select count(*) from lineorder having lo_tax > 1", "42803",
   "column \"lineorder.lo_tax\" must appear in the GROUP BY clause or be used in an aggregate"
   " function", "lo_tax", 0},
  {"select lo_tax + 1, count(*) from lineorder group by lo_tax + 2", "42803", NULL, "lo_tax", 0},
  {"select d_month as d_year from date group by d_year", "42803",
   "column \"date.d_month\" must appear in the GROUP BY clause or be used in an aggregate function",
   "d_month", 0},
  {"select k1, val from t_comp group by k1", "42803",
   "column \"t_comp.val\" must appear in the GROUP BY clause or be used in an aggregate function",
   "val", 0},

  /* ---- GROUP BY, ORDER BY, DISTINCT ---- */
  {"select d_year from date group by 5", "42P10", "GROUP BY position 5 is not in select list", "5",
   0},
  {"select d_year from date order by 0", "42P10", "ORDER BY position 0 is not in select list", "0",
   0},
  {"select d_year from date order by 2", "42P10", "ORDER BY position 2 is not in select list", "2",
   0},
  {"select distinct d_year from date order by d_month", "42P10",
   "for SELECT DISTINCT, ORDER BY expressions must appear in select list", "d_month", 0},
  {"select d_year as x, d_month as x from date order by x", "42702", "ORDER BY \"x\" is ambiguous",
   "x", 3},
  {"select d_year as x, d_month as x from date group by x", "42702", "GROUP BY \"x\" is ambiguous",
   "x", 3},
  {"select d_year from date order by nosuch", "42703", "column \"nosuch\" does not exist", "nosuch",
   0},

  /* ---- LIMIT, OFFSET ---- */
  {"select 1 limit -1", "2201W", "LIMIT must not be negative", "-", 0},
  {"select 1 offset -5", "2201X", "OFFSET must not be negative", "-", 0},
  {"select 1 limit 2 - 3", "2201W", "LIMIT must not be negative", "-", 0},
  {"select d_year from date limit d_year", "42P10", "argument of LIMIT must not contain variables",
   "d_year", 2},
  {"select 1 limit 1.5", "42804", "argument of LIMIT must be type bigint, not type numeric", "1.5",
   0},
  {"select 1 offset true", "42804", "argument of OFFSET must be type bigint, not type boolean",
   "true", 0},
  {"select 1 limit count(*)", "42803", "aggregate functions are not allowed in LIMIT", "count", 0},
  {"select 1 limit 'x'", "22P02", "invalid input syntax for type bigint: \"x\"", "'x'", 0},
  {"select 1 limit 9223372036854775807 + 1", "22003", "bigint out of range", "+", 0},

  /* ---- the first error wins, in PostgreSQL's clause order ---- */
  {"select nosuch1 from lineorder where nosuch2 = 1", "42703", "column \"nosuch1\" does not exist",
   "nosuch1", 0},
  {"select 1 from nosuch1, nosuch2", "42P01", "relation \"nosuch1\" does not exist", "nosuch1", 0},
  {"select 1 from date join lineorder on zz = 1 where yy = 2", "42703",
   "column \"zz\" does not exist", "zz", 0},
};
#define BE_NCASE ((int)(sizeof(be_aCase) / sizeof(be_aCase[0])))

/* Returns the 1-based character position of the n-th occurrence of zAt. */
static int be_position(const char *zSql, const char *zAt, int nth) {
  const char *z = zSql;
  if (nth < 1) nth = 1;
  for (int i = 0; i < nth; i++) {
    const char *zFound = strstr(z, zAt);
    if (zFound == NULL) FAIL("[%s] has no occurrence %d of \"%s\"", zSql, nth, zAt);
    z = zFound + (i + 1 < nth ? 1 : 0);
  }
  return sql_error_position(zSql, (int)(z - zSql));
}

/* Binds each case against pCat and checks its error; prints every case
** that differs, then fails if any did. */
static void be_check_all(cat *pCat, const be_case *aCase, int nCase) {
  int nFail = 0;
  for (int i = 0; i < nCase; i++) {
    const be_case *c = &aCase[i];
    arena a;
    bound_select b;
    sql_error e;
    int rc, iWant, iGot;

    arena_init(&a);
    rc = bindtest_select(pCat, c->zSql, &a, &b, &e);
    iGot = sql_error_position(c->zSql, e.iOffset);
    iWant = c->zAt != NULL ? be_position(c->zSql, c->zAt, c->nth) : 0;
    if (rc != -1 || strcmp(e.zState, c->zState) != 0 || iGot != iWant ||
        (c->zMsg != NULL && strcmp(e.zMsg, c->zMsg) != 0)) {
      printf("case %d [%s]\n  got  rc %d %s at %d: %s\n  want    %s at %d: %s\n", i, c->zSql, rc,
             e.zState, iGot, e.zMsg, c->zState, iWant, c->zMsg ? c->zMsg : "(any)");
      nFail++;
    }
    bind_select_free(&b);
    arena_free(&a);
  }
  printf("%d cases, %d failed\n", nCase, nFail);
  ASSERT_EQ(nFail, 0);
}

TEST_IMPL(bind_errors) {
  cat *pCat = bindtest_cat_open();
  be_check_all(pCat, be_aCase, BE_NCASE);

  /* Positions count characters, not bytes: 'é' is one. */
  {
    arena a;
    bound_select b;
    sql_error e;
    const char *zSql = "select 'é', foo from t_all";
    arena_init(&a);
    ASSERT_EQ(bindtest_select(pCat, zSql, &a, &b, &e), -1);
    ASSERT_EQ(sql_error_position(zSql, e.iOffset), 13);
    bind_select_free(&b);
    arena_free(&a);
  }
  cat_close(pCat);
  return 0;
}

/* A statement that fails may leave part of the tree bound; binding it
** again, or another statement, on the same catalog works, and the error
** of a success is clear. */
TEST_IMPL(bind_errors_reuse) {
  cat *pCat = bindtest_cat_open();
  arena a;
  bound_select b;
  sql_error e;

  arena_init(&a);
  ASSERT_EQ(bindtest_select(pCat, "select d_year, nosuch from date, lineorder", &a, &b, &e), -1);
  ASSERT_EQ(b.nSource, 2);               /* both tables loaded, freed below */
  bind_select_free(&b);
  bind_select_free(&b);                  /* twice is harmless */
  ASSERT_EQ(bindtest_select(pCat, "select d_year from date", &a, &b, &e), 0);
  ASSERT_STR_EQ(e.zState, "");
  ASSERT_EQ(e.iOffset, -1);
  bind_select_free(&b);
  arena_free(&a);
  cat_close(pCat);
  return 0;
}

/* What the parser reads and starq does not run yet: 0A000 "... is not
** supported yet" at the construct (planner/bind_unsupported.c), before
** any later stage could meet it; and PostgreSQL's errors for names of
** schemas that have no such relation, operator or function. */
static const be_case be_aUnsupported[] = {
  /* ---- queries ---- */
  {"select 1 union select 2", "0A000", "UNION is not supported yet", "union", 0},
  {"select 1 union all select 2", "0A000", "UNION ALL is not supported yet", "union", 0},
  {"select d_year from date intersect select 2", "0A000", "INTERSECT is not supported yet",
   "intersect", 0},
  {"(select 1) except all (select 2) order by 1", "0A000", "EXCEPT ALL is not supported yet",
   "except", 0},
  {"values (1), (2)", "0A000", "VALUES lists are not supported yet", "values", 0},
  {"with x as (select 1) select nosuch from date", "0A000", "WITH is not supported yet", "with", 0},
  {"with recursive x as (select 1) select 1", "0A000", "WITH RECURSIVE is not supported yet",
   "with", 0},
  {"select distinct on (d_year) d_year from date", "0A000",
   "SELECT DISTINCT ON is not supported yet", "on", 0},
  {"select d_year from date window w as (order by d_year)", "0A000",
   "the WINDOW clause is not supported yet", "w as", 0},
  {"select d_year from date order by 1 fetch first 1 rows with ties", "0A000",
   "FETCH FIRST ... WITH TIES is not supported yet", "fetch", 0},
  /* ---- FROM ---- */
  {"select * from (select 1) s", "0A000", "a subquery in FROM is not supported yet", "(select",
   0},
  {"select * from date, lateral (select 1) s", "0A000", "LATERAL is not supported yet", "lateral",
   0},
  {"select * from generate_series(1, 2) g", "0A000", "a function in FROM is not supported yet",
   "generate_series", 0},
  {"select * from unnest(array[1]) with ordinality u", "0A000",
   "a function in FROM is not supported yet", "unnest", 0},
  {"select * from (date d join lineorder on true)", "0A000",
   "a parenthesized join is not supported yet", "(date", 0},
  {"select 1 from lineorder left join date on lo_orderdate = d_datekey", "0A000",
   "LEFT JOIN is not supported yet", "left", 0},
  {"select 1 from lineorder right outer join date on lo_orderdate = d_datekey", "0A000",
   "RIGHT JOIN is not supported yet", "right", 0},
  {"select 1 from lineorder full join date on true", "0A000", "FULL JOIN is not supported yet",
   "full", 0},
  {"select 1 from lineorder cross join date", "0A000", "CROSS JOIN is not supported yet", "cross",
   0},
  {"select 1 from lineorder natural join date", "0A000", "NATURAL JOIN is not supported yet",
   "natural", 0},
  {"select 1 from lineorder join date using (d_year)", "0A000",
   "JOIN ... USING is not supported yet", "using", 0},
  {"select 1 from date d (a, b)", "0A000", "a column alias list in FROM is not supported yet",
   "d (", 0},
  {"select 1 from pg_catalog.pg_class", "0A000",
   "relation \"pg_catalog.pg_class\" is not supported yet", "pg_catalog", 0},
  {"select 1 from information_schema.tables", "0A000",
   "relation \"information_schema.tables\" is not supported yet", "information_schema", 0},
  {"select 1 from foo.date", "42P01", "relation \"foo.date\" does not exist", "foo", 0},
  {"select 1 from public.nosuch", "42P01", "relation \"public.nosuch\" does not exist",
   "public", 0},
  {"select public.date.d_year from public.date d", "42P01",
   "invalid reference to FROM-clause entry for table \"date\"", "public", 0},
  {"select foo.date.d_year from date", "42P01", "missing FROM-clause entry for table \"date\"",
   "foo", 0},
  {"select public.date.* from date d", "42P01",
   "invalid reference to FROM-clause entry for table \"date\"", "public", 0},
  /* ---- expressions ---- */
  {"select (select 1)", "0A000", "scalar subqueries are not supported yet", "(select", 0},
  {"select exists (select 1)", "0A000", "EXISTS subqueries are not supported yet", "exists", 0},
  {"select 1 from date where d_year in (select 1)", "0A000", "IN subqueries are not supported yet",
   "in (", 0},
  {"select 1 from date where d_year not in (select 1)", "0A000",
   "NOT IN subqueries are not supported yet", "not in", 0},
  {"select 1 from date where d_year = any (select 1)", "0A000",
   "ANY subqueries are not supported yet", "=", 0},
  {"select 1 from date where d_year < all (array[1])", "0A000",
   "ALL (array) is not supported yet", "<", 0},
  {"select array[1]", "0A000", "ARRAY constructors are not supported yet", "array", 0},
  {"select array(select 1)", "0A000", "ARRAY subqueries are not supported yet", "array", 0},
  {"select d_year[1] from date", "0A000", "array subscripts are not supported yet", "[", 0},
  {"select d_dayofweek collate \"C\" from date", "0A000", "COLLATE is not supported yet",
   "collate", 0},
  {"select d_year is true from date", "0A000", "IS TRUE is not supported yet", "is", 0},
  {"select d_year is not unknown from date", "0A000", "IS NOT UNKNOWN is not supported yet", "is",
   0},
  {"select d_year is distinct from 1 from date", "0A000", "IS DISTINCT FROM is not supported yet",
   "is", 0},
  {"select d_year is not distinct from 1 from date", "0A000",
   "IS NOT DISTINCT FROM is not supported yet", "is", 0},
  {"select d_dayofweek ^ 'x' from date", "0A000", "operator ^ is not supported yet", "^", 0},
  {"select 1 from date where d_dayofweek ~ 'x'", "0A000", "operator ~ is not supported yet", "~",
   0},
  {"select 1 from date where d_dayofweek !~* 'x'", "0A000", "operator !~* is not supported yet",
   "!~*", 0},
  {"select d_year @> 1 from date", "0A000", "operator @> is not supported yet", "@>", 0},
  {"select 2 ^ 3", "0A000", "operator ^ is not supported yet", "^", 0},
  {"select @ -5", "0A000", "operator @ is not supported yet", "@", 0},
  {"select 1 operator(public.+) 2", "42883", "operator does not exist: public.+", "operator", 0},
  {"select d_year between symmetric 1 and 2 from date", "0A000",
   "BETWEEN SYMMETRIC is not supported yet", "between", 0},
  {"select d_year ilike 'x' from date", "42883", "operator does not exist: integer ~~* unknown",
   "ilike", 0},
  {"select d_dayofweek not ilike 2 from date", "42883",
   "operator does not exist: character varying !~~* integer", "not", 0},
  {"select d_dayofweek similar to 'x' from date", "0A000", "SIMILAR TO is not supported yet",
   "similar", 0},
  {"select d_dayofweek like 'x!%' escape '!' from date", "0A000",
   "LIKE ... ESCAPE is not supported yet", "escape", 0},
  {"select 1 from date where d_year = 1 and d_dayofweek like 'x' and d_month similar to 'y'",
   "0A000", "SIMILAR TO is not supported yet", "similar", 0},
  {"select '2020-01-01'::timestamp", "0A000",
   "type timestamp without time zone is not supported yet", "::", 0},
  {"select timestamp with time zone '2020-01-01'", "0A000",
   "type timestamp with time zone is not supported yet", "timestamp", 0},
  {"select interval '1' day", "0A000", "type interval is not supported yet", "interval", 0},
  {"select d_year::numeric(30, 2) from date", "0A000", "type numeric(30,2) is not supported yet",
   "::", 0},
  {"select 'date'::regclass", "0A000", "type regclass is not supported yet", "::", 0},
  {"select d_year::oid from date", "0A000", "type oid is not supported yet", "::", 0},
  {"select cast(d_year as int[]) from date", "0A000", "array types are not supported yet", "cast",
   0},
  {"select count(*) over () from date", "0A000", "window functions are not supported yet",
   "() from", 0},
  {"select sum(d_year) over w from date", "0A000", "window functions are not supported yet",
   "w from", 0},
  {"select sum(d_year) filter (where d_year) from date", "42804",
   "argument of FILTER must be type boolean, not type integer", "d_year) from", 0},
  {"select percentile_cont(0.5) within group (order by d_year) from date", "0A000",
   "WITHIN GROUP is not supported yet", "percentile_cont", 0},
  {"select string_agg(d_dayofweek, ',' order by d_year) from date", "0A000",
   "ORDER BY in aggregate arguments is not supported yet", "d_year)", 0},
  {"select extract(year from d_date) from date", "42883",
   "function pg_catalog.extract(unknown, character varying) does not exist", "extract", 0},
  {"select overlay(d_dayofweek placing 'x' from 1) from date", "0A000",
   "OVERLAY is not supported yet", "overlay", 0},
  {"select substring(d_year from 1) from date", "42883",
   "function pg_catalog.substring(integer, integer) does not exist", "substring", 0},
  {"select current_date", "0A000", "CURRENT_DATE is not supported yet", "current_date", 0},
  {"select current_timestamp(3)", "0A000", "CURRENT_TIMESTAMP is not supported yet", "current", 0},
  {"select user", "0A000", "USER is not supported yet", "user", 0},
  {"select public.sum(d_year) from date", "42883", "function public.sum(integer) does not exist",
   "public", 0},
  {"select upper(d_year) from date", "42883", "function upper(integer) does not exist", "upper", 0},
  {"select abs(d_dayofweek) from date", "42883",
   "function abs(character varying) does not exist", "abs", 0},
  {"select coalesce(d_year, d_month) from date", "42804",
   "COALESCE types integer and character varying cannot be matched", "d_month", 0},
  {"select round(avg(d_year), 2) from date", "0A000",
   "round(avg(...), n) is not supported yet: starq's avg is double precision", "round", 0},
  {"select round(d_year, 19) from date", "0A000",
   "round(x, n) with n other than a constant 0 to 18 is not supported yet", "19", 0},
  {"select trunc(1.5, d_year) from date", "0A000",
   "trunc(x, n) with n other than a constant 0 to 18 is not supported yet", "d_year", 0},
  {"select d_year, stddev(d_daynuminyear) from date group by 1", "0A000",
   "aggregate stddev is not supported yet", "stddev", 0},
  {"select var_pop(d_year) from date", "0A000", "aggregate var_pop is not supported yet", "var_pop", 0},
  {"select string_agg(d_dayofweek, ',') from date", "0A000",
   "aggregate string_agg is not supported yet", "string_agg", 0},
  {"select sqrt(d_year * 1.5) from date", "0A000", "sqrt of numeric is not supported yet", "sqrt", 0},
  {"select power(d_year, 1.5) from date", "0A000", "power of numeric is not supported yet", "power", 0},
  {"select power(d_year) from date", "42883", "function power(integer) does not exist", "power", 0},
  {"select round(d_date) from date", "42883", "function round(character varying) does not exist",
   "round", 0},
  {"select greatest(1, 2, 3, 4, 5)", "0A000", "greatest with more than 4 arguments is not supported yet",
   "greatest", 0},
  /* ---- GROUP BY ---- */
  {"select d_year from date group by rollup (d_year)", "0A000", "ROLLUP is not supported yet",
   "rollup", 0},
  {"select d_year from date group by cube (d_year)", "0A000", "CUBE is not supported yet", "cube",
   0},
  {"select d_year from date group by grouping sets ((d_year), ())", "0A000",
   "GROUPING SETS is not supported yet", "grouping", 0},
  {"select count(*) from date group by ()", "0A000",
   "the empty grouping set () is not supported yet", "()", 0},
  {"select d_year from date group by (d_year, d_month)", "0A000",
   "row constructors are not supported yet", "(d_year", 0},
  /* ---- where they are met: the first in PostgreSQL's clause order ---- */
  {"select (select 1) from date where exists (select 1)", "0A000",
   "scalar subqueries are not supported yet", "(select", 0},
  {"select nosuch || 'x' from date", "42703", "column \"nosuch\" does not exist", "nosuch", 0},
  {"select 1 from date d join lineorder on lo_orderdate = d_datekey and d_year in (select 1)",
   "0A000", "IN subqueries are not supported yet", "in (", 0},
  {"select d_year from date order by d_year ^ 'x'", "0A000", "operator ^ is not supported yet",
   "^", 0},
  {"select d_year from date limit (select 1)", "0A000", "scalar subqueries are not supported yet",
   "(select", 0},
};

TEST_IMPL(bind_errors_unsupported) {
  cat *pCat = bindtest_cat_open();
  be_check_all(pCat, be_aUnsupported,
               (int)(sizeof(be_aUnsupported) / sizeof(be_aUnsupported[0])));
  cat_close(pCat);
  return 0;
}
