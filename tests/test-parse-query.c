/*
** tests/test-parse-query.c — the queries of PostgreSQL's SQL that parse
** (parser/ast-select.c): FROM with schema-qualified and quoted names, joins
** of every kind, derived tables and functions in FROM, WITH, set
** operations and their precedence, VALUES, subqueries of every form,
** window functions and their frames, aggregates with FILTER, ORDER BY and
** WITHIN GROUP, grouping sets, DISTINCT ON, LIMIT / OFFSET / FETCH FIRST;
** and deparse's round trip of all of them. Each case is an input and its
** dump (format in test-parse-print*.c). The errors of these are in
** test-parse-errors.c; what the binder refuses of them is in
** test-bind-errors.c.
*/
#include "test-parse.h"
#include "test.h"

TEST_IMPL(parse_from) {
  static const parse_case aCase[] = {
    {"select * from public.lineorder, pg_catalog.pg_class c, information_schema.tables",
     "(select (items *) (from public.lineorder (pg_catalog.pg_class :as c) "
     "information_schema.tables))"},
    {"select \"Customer\".\"c_region\", \"public\".\"lineorder\".lo_tax from "
     "\"public\".\"lineorder\" join public.customer \"Customer\" on true",
     "(select (items (col Customer.\"c_region\") (col public.lineorder.lo_tax)) (from "
     "public.lineorder (join public.customer :as Customer :on true)))"},
    {"select public.lineorder.lo_revenue, public.lineorder.*, s.* from public.lineorder, s",
     "(select (items (col public.lineorder.lo_revenue) public.lineorder.* s.*) (from "
     "public.lineorder s))"},
    {"select * from a join b on a.x = b.x left outer join c on true right join d on true "
     "full outer join e on true",
     "(select (items *) (from a (join b :on (eq (col a.x) (col b.x))) (left-join c :on true) "
     "(right-join d :on true) (full-join e :on true)))"},
    {"select * from a cross join b natural join c natural left join d natural full join e, f "
     "inner join g using (x, y)",
     "(select (items *) (from a (cross-join b) (join :natural c) (left-join :natural d) "
     "(full-join :natural e) f (join g :using (x y))))"},
    {"select * from (select 1) as t (c1), (select 2) u, (values (1)) v (x)",
     "(select (items *) (from (subquery (select (items 1)) :as t (c1)) (subquery (select "
     "(items 2)) :as u) (subquery (values (row 1)) :as v (x))))"},
    {"select * from unnest(array[1, 2]) with ordinality as u (x, n), generate_series(1, 10) "
     "g, pg_catalog.unnest(a) as z",
     "(select (items *) (from (function :ordinality (unnest (array 1 2)) :as u (x n)) "
     "(function (generate_series 1 10) :as g) (function (pg_catalog.unnest (col a)) :as z)))"},
    {"select * from (a join b on true) as j, (a cross join (b join c using (k))), ((a join b "
     "on x) join c on y)",
     "(select (items *) (from (nested (from a (join b :on true)) :as j) (nested (from a "
     "(cross-join nested (from b (join c :using (k)))))) (nested (from (nested (from a (join "
     "b :on (col x)))) (join c :on (col y))))))"},
    {"select * from lateral (select 1) x, lateral f(1), t as a (p, q)",
     "(select (items *) (from (subquery :lateral (select (items 1)) :as x) (function "
     ":lateral (f 1)) (t :as a (p q))))"},
    {"select * from ((select 1) union (select 2)) s",
     "(select (items *) (from (subquery (union (select (items 1)) (select (items 2))) :as "
     "s)))"},
  };
  PARSE_CHECK(aCase, 0);
  return 0;
}

TEST_IMPL(parse_with) {
  static const parse_case aCase[] = {
    {"with y (a, b) as materialized (select 1, 2), z as not materialized (select 3) select * "
     "from y, z",
     "(select (with (cte y (a b) :materialized (select (items 1 2))) (cte z "
     ":not-materialized (select (items 3)))) (items *) (from y z))"},
    {"with recursive r as (select 1 union all select n + 1 from r) select * from r",
     "(select (with :recursive (cte r (union :all (select (items 1)) (select (items (add "
     "(col n) 1)) (from r))))) (items *) (from r))"},
    {"with x as (select 1) select * from x union select * from x order by 1 limit 1",
     "(union (with (cte x (select (items 1)))) (select (items *) (from x)) (select (items *) "
     "(from x)) (order 1) (limit 1))"},
    {"with x as (with y as (select 1) select * from y) (select * from x)",
     "(select (with (cte x (select (with (cte y (select (items 1)))) (items *) (from y)))) "
     "(items *) (from x))"},
    {"select * from (with x as (select 1) select * from x) s where exists (with z as (values "
     "(1)) select 1 from z)",
     "(select (items *) (from (subquery (select (with (cte x (select (items 1)))) (items *) "
     "(from x)) :as s)) (where (exists (select (with (cte z (values (row 1)))) (items 1) "
     "(from z)))))"},
  };
  PARSE_CHECK(aCase, 0);
  return 0;
}

TEST_IMPL(parse_setops) {
  static const parse_case aCase[] = {
    {"select 1 union select 2 intersect select 3 except all select 4 order by 1 limit 2 "
     "offset 1",
     "(except :all (union (select (items 1)) (intersect (select (items 2)) (select (items "
     "3)))) (select (items 4)) (order 1) (limit 2) (offset 1))"},
    {"select 1 union all select 2 union distinct select 3",
     "(union (union :all (select (items 1)) (select (items 2))) (select (items 3)))"},
    {"(select 1 union select 2) intersect (select 3 order by 1)",
     "(intersect (union (select (items 1)) (select (items 2))) (select (items 3) (order 1)))"},
    {"select 1 intersect all select 2 intersect select 3",
     "(intersect (intersect :all (select (items 1)) (select (items 2))) (select (items 3)))"},
    {"(select a from t order by a limit 1) union all (select a from u)",
     "(union :all (select (items (col a)) (from t) (order (col a)) (limit 1)) (select (items "
     "(col a)) (from u)))"},
    {"values (1, 'a'), (2, 'b') order by 1",
     "(values (row 1 'a') (row 2 'b') (order 1))"},
    {"select 1 union values (2), (3)",
     "(union (select (items 1)) (values (row 2) (row 3)))"},
    {"table t",
     "(select (items *) (from t))"},
    {"table public.t order by 1",
     "(select (items *) (from public.t) (order 1))"},
    {"((select 1))",
     "(select (items 1))"},
  };
  PARSE_CHECK(aCase, 0);
  return 0;
}

TEST_IMPL(parse_subqueries) {
  static const parse_case aCase[] = {
    {"select (select max(a) from t), exists (select 1), not exists (select 1 from u where "
     "u.k = t.k) from t",
     "(select (items (subquery (select (items (max (col a))) (from t))) (exists (select "
     "(items 1))) (not (exists (select (items 1) (from u) (where (eq (col u.k) (col "
     "t.k))))))) (from t))"},
    {"select * from t where x in (select y from u) and x not in (select 1) and (x in "
     "((select 1)))",
     "(select (items *) (from t) (where (and (and (in (col x) (select (items (col y)) (from "
     "u))) (not-in (col x) (select (items 1)))) (in (col x) (select (items 1))))))"},
    {"select * from t where x in ((select 1), 2) and x = ((select 1))",
     "(select (items *) (from t) (where (and (in (col x) (subquery (select (items 1))) 2) "
     "(eq (col x) (subquery (select (items 1)))))))"},
    {"select * from t where x = any (select 1) and x < all (array[1, 2]) and x >= some "
     "(select 2) and x ~ any (select 'a')",
     "(select (items *) (from t) (where (and (and (any eq (col x) (select (items 1))) (all "
     "lt (col x) (array 1 2))) (and (any ge (col x) (select (items 2))) (any regex (col x) "
     "(select (items 'a')))))))"},
    {"select * from t where x like any (array['a']) and x not like all ('{a}'::text[]) and x "
     "ilike any (a) and x not ilike all (a)",
     "(select (items *) (from t) (where (and (and (any like (col x) (array 'a')) (all "
     "not-like (col x) (cast '{a}' TEXT[]))) (and (any ilike (col x) (col a)) (all not-ilike "
     "(col x) (col a))))))"},
    {"select * from t where x operator(pg_catalog.=) any (select 1) and x @> any (a)",
     "(select (items *) (from t) (where (and (any eq :schema pg_catalog (col x) (select "
     "(items 1))) (any op @> (col x) (col a)))))"},
    {"select array(select a from t), (select 1)::text, (select 1) + 1",
     "(select (items (array (select (items (col a)) (from t))) (cast (subquery (select "
     "(items 1))) TEXT) (add (subquery (select (items 1))) 1)))"},
  };
  PARSE_CHECK(aCase, 0);
  return 0;
}

TEST_IMPL(parse_windows) {
  static const parse_case aCase[] = {
    {"select rank() over (partition by a order by b desc rows between unbounded preceding "
     "and current row exclude ties) from t",
     "(select (items (rank :over (window :partition (col a) :order (col b) :desc :rows "
     "unbounded-preceding :and current-row :exclude ties))) (from t))"},
    {"select sum(x) over w, sum(x) over (w order by y range between 1 preceding and 2 "
     "following) from t window w as (partition by c), w2 as (w order by d)",
     "(select (items (sum (col x) :over w) (sum (col x) :over (window :base w :order (col y) "
     ":range (preceding 1) :and (following 2)))) (from t) (windows (window :name w "
     ":partition (col c)) (window :name w2 :base w :order (col d))))"},
    {"select count(*) over (groups 3 preceding exclude current row), f() over (rows "
     "unbounded preceding), g() over (range current row exclude no others) from t",
     "(select (items (count * :over (window :groups (preceding 3) :exclude current-row)) (f "
     ":over (window :rows unbounded-preceding)) (g :over (window :range current-row))) (from "
     "t))"},
    {"select h() over (w), i() over (), j() over (order by a nulls last rows between current "
     "row and unbounded following exclude group) from t",
     "(select (items (h :over (window :base w)) (i :over (window)) (j :over (window :order "
     "(col a) :nulls-last :rows current-row :and unbounded-following :exclude group))) (from "
     "t))"},
    {"select row_number() over (partition by a, b), lag(x, 1) over (order by y rows between "
     "2 following and 3 following) from t",
     "(select (items (row_number :over (window :partition (col a) (col b))) (lag (col x) 1 "
     ":over (window :order (col y) :rows (following 2) :and (following 3)))) (from t))"},
    {"select sum(sum(x)) over (order by d_year) from t group by d_year",
     "(select (items (sum (sum (col x)) :over (window :order (col d_year)))) (from t) (group "
     "(col d_year)))"},
  };
  PARSE_CHECK(aCase, 0);
  return 0;
}

TEST_IMPL(parse_aggregates) {
  static const parse_case aCase[] = {
    {"select count(distinct x), count(all x), sum(x) filter (where x > 1), count(*) filter "
     "(where true) from t",
     "(select (items (count distinct (col x)) (count (col x)) (sum (col x) :filter (gt (col "
     "x) 1)) (count * :filter true)) (from t))"},
    {"select string_agg(x, ',' order by y desc), array_agg(distinct x order by x), "
     "array_agg(x order by y) from t",
     "(select (items (string_agg (col x) ',' :order ( (col y) :desc)) (array_agg distinct "
     "(col x) :order ( (col x))) (array_agg (col x) :order ( (col y)))) (from t))"},
    {"select percentile_cont(0.5) within group (order by x), mode() within group (order by "
     "x) filter (where true) over () from t",
     "(select (items (percentile_cont 0.5 :within-group ( (col x))) (mode :within-group ( "
     "(col x)) :filter true :over (window))) (from t))"},
    {"select grouping(a, b), pg_catalog.count(*) from t group by a, b",
     "(select (items (grouping (col a) (col b)) (pg_catalog.count *)) (from t) (group (col "
     "a) (col b)))"},
  };
  PARSE_CHECK(aCase, 0);
  return 0;
}

TEST_IMPL(parse_grouping) {
  static const parse_case aCase[] = {
    {"select a, b from t group by rollup (a, (b, c)), cube (a), grouping sets ((a, b), (a), "
     "(), rollup (a), cube (b), grouping sets (c))",
     "(select (items (col a) (col b)) (from t) (group (rollup (col a) (row (col b) (col c))) "
     "(cube (col a)) (grouping-sets (row (col a) (col b)) (col a) (row) (rollup (col a)) "
     "(cube (col b)) (grouping-sets (col c)))))"},
    {"select a from t group by (), a + 1, (a, b)",
     "(select (items (col a)) (from t) (group (row) (add (col a) 1) (row (col a) (col b))))"},
    {"select distinct on (a, b) a, b from t order by a, b",
     "(select :distinct :distinct-on ( (col a) (col b)) (items (col a) (col b)) (from t) "
     "(order (col a) (col b)))"},
    {"select a from t group by a having count(*) > 1 window w as () order by a",
     "(select (items (col a)) (from t) (group (col a)) (having (gt (count *) 1)) (windows "
     "(window :name w)) (order (col a)))"},
  };
  PARSE_CHECK(aCase, 0);
  return 0;
}

TEST_IMPL(parse_limit) {
  static const parse_case aCase[] = {
    {"select a from t order by a limit all offset 2 rows",
     "(select (items (col a)) (from t) (order (col a)) (offset 2))"},
    {"select a from t fetch first 5 rows only",
     "(select (items (col a)) (from t) (limit 5))"},
    {"select a from t fetch next 1 row only offset 3",
     "(select (items (col a)) (from t) (limit 1) (offset 3))"},
    {"select a from t order by a offset 1 row fetch next row with ties",
     "(select (items (col a)) (from t) (order (col a)) (limit 1) :with-ties (offset 1))"},
    {"select a from t fetch first row only",
     "(select (items (col a)) (from t) (limit 1))"},
    {"select a from t order by a fetch first $1 rows with ties",
     "(select (items (col a)) (from t) (order (col a)) (limit $1) :with-ties)"},
    {"(select a from t limit 1) order by a",
     "(select (items (col a)) (from t) (order (col a)) (limit 1))"},
    {"(select a from t order by a) limit 1 offset 2",
     "(select (items (col a)) (from t) (order (col a)) (limit 1) (offset 2))"},
  };
  PARSE_CHECK(aCase, 0);
  return 0;
}

/* Returns the deparse of zSql, one SELECT, without its ";\n" (malloc'd). */
static char *tq_deparse(const char *zSql) {
  char *z = parse_deparse(zSql, NULL);
  size_t n = strlen(z);
  ASSERT(n >= 2 && strcmp(z + n - 2, ";\n") == 0);
  z[n - 2] = 0;
  return z;
}

/* What deparse writes (EXPLAIN shows expressions so): keywords upper case,
** names quoted only where they must be, parentheses only where PostgreSQL's
** precedence needs them, SQL's own syntax for the calls written in it. Each
** case parses back to its tree (parse_check_deparse). */
TEST_IMPL(parse_deparse) {
  static const parse_case aCase[] = {
    {"select a from t where a = 1 and b = 2 and c = 3 and d = 4",
     "SELECT a FROM t WHERE a = 1 AND b = 2 AND c = 3 AND d = 4"},
    {"select (a or b) and c, a - (b - c), (a || b) = c, -(-1), - -1, @ -1, not not a",
     "SELECT (a OR b) AND c, a - (b - c), a || b = c, - -1, - -1, @ -1, NOT NOT a"},
    {"select \"Mixed\", \"select\", \"a\"\"b\", year, \"left\"(s, 1) from \"T\" \"X\"",
     "SELECT \"Mixed\", \"select\", \"a\"\"b\", year, \"left\"(s, 1) FROM \"T\" AS \"X\""},
    {"select (select 1 union select 2 intersect select 3) x",
     "SELECT (SELECT 1 UNION SELECT 2 INTERSECT SELECT 3) AS x"},
    {"(select 1 union select 2) intersect select 3 except (select 4 except select 5)",
     "(SELECT 1 UNION SELECT 2) INTERSECT SELECT 3 EXCEPT (SELECT 4 EXCEPT SELECT 5)"},
    {"select extract(year from d), substring(s for 2), position(a in b), trim(s), "
     "current_timestamp(2), user, overlay(a placing b from 1)",
     "SELECT EXTRACT(year FROM d), SUBSTRING(s FROM 1 FOR 2), POSITION(a IN b), "
     "TRIM(BOTH FROM s), CURRENT_TIMESTAMP(2), USER, OVERLAY(a PLACING b FROM 1)"},
    {"select count(*) filter (where a) over (partition by b rows 2 preceding), "
     "string_agg(x, ',' order by y desc nulls first) from t window w as (order by z)",
     "SELECT count(*) FILTER (WHERE a) OVER (PARTITION BY b ROWS 2 PRECEDING), "
     "string_agg(x, ',' ORDER BY y DESC NULLS FIRST) FROM t WINDOW w AS (ORDER BY z)"},
    {"with x(a) as not materialized (values (1)) select * from x, lateral f(a) with ordinality "
     "as g(b, n) left join (y cross join z) using (q) order by 1 fetch first 2 rows with ties",
     "WITH x(a) AS NOT MATERIALIZED (VALUES (1)) SELECT * FROM x, LATERAL f(a) WITH ORDINALITY "
     "AS g(b, n) LEFT JOIN (y CROSS JOIN z) USING (q) ORDER BY 1 FETCH FIRST 2 ROWS WITH TIES"},
    {"select a::timestamp(3) with time zone, '1'::interval day to second, b::int[][], c::\"char\"",
     "SELECT CAST(a AS TIMESTAMP(3) WITH TIME ZONE), CAST('1' AS INTERVAL DAY TO SECOND), "
     "CAST(b AS INTEGER[][]), CAST(c AS \"char\")"},
    {"select a[1:], (a + b)[1], x = any (array[1]), x not like all (select y), "
     "a collate pg_catalog.default, a operator(pg_catalog.~) b, a is not distinct from b",
     "SELECT a[1:], (a + b)[1], x = ANY (ARRAY[1]), x NOT LIKE ALL (SELECT y), "
     "a COLLATE pg_catalog.\"default\", a OPERATOR(pg_catalog.~) b, a IS NOT DISTINCT FROM b"},
    {"select distinct on (a) a from t group by rollup (a, (b, c)), grouping sets ((), a)",
     "SELECT DISTINCT ON (a) a FROM t GROUP BY ROLLUP (a, (b, c)), GROUPING SETS ((), a)"},
    {"select $$it's$$, E'\\n', x from public.t, s.u",
     "SELECT 'it''s', '\n', x FROM public.t, s.u"},
  };
  for (size_t i = 0; i < sizeof(aCase) / sizeof(aCase[0]); i++) {
    char *z = tq_deparse(aCase[i].zSql);
    if (strcmp(z, aCase[i].zExpect) != 0) {
      FAIL("case %zu: %s\n  expected: %s\n  got:      %s", i, aCase[i].zSql, aCase[i].zExpect, z);
    }
    free(z);
    if (i != 11) parse_check_deparse(aCase[i].zSql);
  }
  return 0;
}
