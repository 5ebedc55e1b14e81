/*
** tests/test-relational.c — relational SQL through the engine (issue 25):
** plans of several device pipelines and a host tail over their results
** (planner/dag.h). Set operations, derived tables and CTEs over star
** queries, joins of them of every kind, on the CPU backend and on the
** mock CUDA backend, each answer compared with PostgreSQL 15
** (tests/pgref.h) on the same SSB rows (SF 0.01); the errors PostgreSQL
** raises, with their positions; EXPLAIN showing the tail and each
** pipeline under it; a plain star query still one pipeline, no tail.
*/
#include <signal.h>
#include <string.h>

#include "pgref.h"
#include "starqd-fixture.h"
#include "test-exec.h"
#include "test.h"

/* Each with ORDER BY over every column where row order matters. */
static const char *const azSetop[] = {
    /* UNION ALL of two star queries: duplicates kept */
    "SELECT d_year, sum(lo_revenue) AS rev FROM lineorder, date WHERE lo_orderdate = d_datekey"
    " AND d_year = 1993 GROUP BY d_year"
    " UNION ALL SELECT d_year, sum(lo_revenue) FROM lineorder, date"
    " WHERE lo_orderdate = d_datekey AND d_year <= 1994 GROUP BY d_year ORDER BY 1, 2",
    /* UNION removes duplicates, across its operands and within them */
    "SELECT c_region FROM customer UNION SELECT s_region FROM supplier ORDER BY c_region",
    "SELECT c_nation, c_region FROM customer WHERE c_custkey < 40"
    " UNION SELECT s_nation, s_region FROM supplier WHERE s_suppkey < 5 ORDER BY 1 DESC, 2",
    /* INTERSECT and EXCEPT, with and without ALL */
    "SELECT c_city FROM customer INTERSECT SELECT s_city FROM supplier ORDER BY 1",
    "SELECT c_nation FROM customer WHERE c_custkey < 200"
    " INTERSECT ALL SELECT s_nation FROM supplier ORDER BY 1",
    "SELECT c_nation FROM customer EXCEPT SELECT s_nation FROM supplier WHERE s_suppkey < 8"
    " ORDER BY 1",
    "SELECT c_nation FROM customer WHERE c_custkey < 300"
    " EXCEPT ALL SELECT s_nation FROM supplier ORDER BY 1",
    /* three operands, INTERSECT binding tighter, parentheses */
    "SELECT p_mfgr FROM part UNION SELECT c_region FROM customer"
    " INTERSECT SELECT s_region FROM supplier ORDER BY 1",
    "(SELECT p_mfgr FROM part UNION SELECT c_region FROM customer)"
    " EXCEPT SELECT s_region FROM supplier WHERE s_suppkey < 3 ORDER BY 1",
    /* types resolved across operands: integer beside bigint, numeric
    ** beside integer, date beside date */
    "SELECT lo_quantity FROM lineorder WHERE lo_orderkey < 40"
    " UNION SELECT count(*) FROM customer ORDER BY 1",
    "SELECT lo_orderkey FROM lineorder WHERE lo_orderkey < 20"
    " UNION ALL SELECT lo_quantity FROM lineorder WHERE lo_orderkey < 10 ORDER BY 1",
    "SELECT CAST(lo_discount AS DECIMAL(6,2)) FROM lineorder WHERE lo_orderkey < 20"
    " UNION SELECT lo_tax FROM lineorder WHERE lo_orderkey < 10 ORDER BY 1",
    "SELECT d_datekey FROM date WHERE d_year = 1995 AND d_monthnuminyear = 3"
    " EXCEPT SELECT lo_orderdate FROM lineorder ORDER BY 1",
    /* ORDER BY a name, DESC, NULLS FIRST; LIMIT and OFFSET over the whole */
    "SELECT s_city AS city, s_nation FROM supplier UNION SELECT c_city, c_nation FROM customer"
    " ORDER BY city DESC, s_nation LIMIT 7 OFFSET 3",
    "SELECT d_year, count(*) AS n FROM lineorder, date WHERE lo_orderdate = d_datekey"
    " GROUP BY d_year UNION ALL SELECT d_year, count(*) FROM date GROUP BY d_year"
    " ORDER BY n NULLS FIRST, d_year LIMIT 5",
    /* an operand with its own ORDER BY and LIMIT, run by its pipeline */
    "(SELECT c_custkey FROM customer ORDER BY c_custkey DESC LIMIT 3)"
    " UNION ALL (SELECT s_suppkey FROM supplier ORDER BY s_suppkey LIMIT 2) ORDER BY 1",
    /* empty operands */
    "SELECT c_name FROM customer WHERE c_custkey < 0 UNION SELECT s_name FROM supplier"
    " WHERE s_suppkey < 4 ORDER BY 1",
    "SELECT c_name FROM customer WHERE c_custkey < 5 INTERSECT SELECT s_name FROM supplier"
    " ORDER BY 1",
    /* grouped star queries on both sides, the SSB shape */
    "SELECT c_nation, sum(lo_revenue) AS r FROM lineorder, customer"
    " WHERE lo_custkey = c_custkey AND c_region = 'ASIA' GROUP BY c_nation"
    " UNION ALL SELECT s_nation, sum(lo_revenue) FROM lineorder, supplier"
    " WHERE lo_suppkey = s_suppkey AND s_region = 'ASIA' GROUP BY s_nation ORDER BY 1, 2",
};

/* Derived tables and CTEs: the inner star queries on the device, the
** outer SELECT on the host. */
static const char *const azDerived[] = {
    /* Superset's shape: a chart's query wrapped, grouped again, limited */
    "SELECT d_year, sum(rev) AS total FROM (SELECT d_year, c_nation, sum(lo_revenue) AS rev"
    " FROM lineorder, date, customer WHERE lo_orderdate = d_datekey AND lo_custkey = c_custkey"
    " AND c_region = 'AMERICA' GROUP BY d_year, c_nation) AS virtual_table"
    " GROUP BY d_year ORDER BY total DESC LIMIT 10000",
    /* a filter, arithmetic and CASE over a grouped star query */
    "SELECT c_nation, rev / 1000 AS k, CASE WHEN rev > 100000000 THEN 'big' ELSE 'small' END AS sz"
    " FROM (SELECT c_nation, sum(lo_revenue) AS rev FROM lineorder, customer"
    " WHERE lo_custkey = c_custkey GROUP BY c_nation) t WHERE rev BETWEEN 0 AND 900000000"
    " AND c_nation LIKE '%A%' ORDER BY k, c_nation",
    /* a column alias list, count(*), min, max, avg of integers over it */
    "SELECT count(*), min(y), max(n), count(DISTINCT y) FROM (SELECT d_year, count(*)"
    " FROM lineorder, date WHERE lo_orderdate = d_datekey GROUP BY d_year) AS t (y, n)",
    /* HAVING, ORDER BY an expression not selected, OFFSET */
    "SELECT s_region, count(*) AS nations FROM (SELECT s_region, s_nation FROM supplier"
    " GROUP BY s_region, s_nation) x GROUP BY s_region HAVING count(*) > 1"
    " ORDER BY max(s_nation) DESC OFFSET 1",
    /* a CTE read twice: each nation against its region's best (max, not
    ** sum: PostgreSQL's sum of bigint is numeric, starq's bigint) */
    "WITH r AS (SELECT c_region, c_nation, sum(lo_revenue) AS rev FROM lineorder, customer"
    " WHERE lo_custkey = c_custkey GROUP BY c_region, c_nation),"
    " t AS (SELECT c_region, max(rev) AS total FROM r GROUP BY c_region)"
    " SELECT r.c_nation, r.rev * 100 / t.total AS pct FROM r JOIN t ON r.c_region = t.c_region"
    " ORDER BY pct DESC, r.c_nation",
    /* a dimension's aggregate left-joined to the fact's: missing keys */
    "WITH s AS (SELECT s_nation, count(*) AS n FROM supplier GROUP BY s_nation),"
    " l AS (SELECT s_nation, sum(lo_revenue) AS rev FROM lineorder, supplier"
    " WHERE lo_suppkey = s_suppkey AND lo_quantity < 3 AND s_region = 'ASIA' GROUP BY s_nation)"
    " SELECT s.s_nation, s.n, l.rev FROM s LEFT JOIN l ON s.s_nation = l.s_nation"
    " ORDER BY s.s_nation",
    "WITH a AS (SELECT c_nation FROM customer WHERE c_custkey < 60 GROUP BY c_nation),"
    " b AS (SELECT s_nation FROM supplier WHERE s_suppkey < 6 GROUP BY s_nation)"
    " SELECT a.c_nation, b.s_nation FROM a FULL JOIN b ON a.c_nation = b.s_nation"
    " ORDER BY 1 NULLS FIRST, 2",
    "WITH a AS (SELECT c_nation FROM customer WHERE c_custkey < 60 GROUP BY c_nation),"
    " b AS (SELECT s_nation FROM supplier WHERE s_suppkey < 6 GROUP BY s_nation)"
    " SELECT a.c_nation, b.s_nation FROM a RIGHT JOIN b ON a.c_nation = b.s_nation"
    " ORDER BY 2",
    /* a WITH over a set operation */
    "WITH a AS (SELECT c_nation, count(*) AS n FROM customer GROUP BY c_nation)"
    " SELECT c_nation FROM a WHERE n > 12 UNION SELECT s_nation FROM supplier ORDER BY 1",
    /* a non-equi join condition and a comma join with WHERE */
    "WITH y AS (SELECT d_year, count(*) AS n FROM date GROUP BY d_year)"
    " SELECT a.d_year, b.d_year FROM y a, y b WHERE a.d_year < b.d_year AND b.d_year < 1995"
    " ORDER BY 1, 2",
    /* a CTE over a set operation, DISTINCT over a derived table */
    "WITH n AS (SELECT c_nation AS nation FROM customer UNION ALL SELECT s_nation FROM supplier)"
    " SELECT nation, count(*) FROM n GROUP BY nation ORDER BY 2 DESC, 1 LIMIT 5",
    "SELECT DISTINCT c_region FROM (SELECT c_region, c_city FROM customer) t ORDER BY c_region",
    /* nested derived tables */
    "SELECT max(rev) FROM (SELECT y, rev FROM (SELECT d_year AS y, sum(lo_revenue) AS rev"
    " FROM lineorder, date WHERE lo_orderdate = d_datekey GROUP BY d_year) a WHERE y > 1993) b",
    /* a dimension left-joined to an aggregate of the fact table: the
    ** dimension read by a pipeline of its own, missing keys NULL */
    "SELECT s_name, t.rev FROM supplier LEFT JOIN (SELECT lo_suppkey, sum(lo_revenue) AS rev"
    " FROM lineorder WHERE lo_quantity < 2 GROUP BY lo_suppkey) t ON s_suppkey = t.lo_suppkey"
    " ORDER BY s_name",
    "SELECT c_nation, t.n FROM (SELECT lo_custkey, count(*) AS n FROM lineorder"
    " GROUP BY lo_custkey) t, customer WHERE t.lo_custkey = c_custkey AND c_custkey < 20"
    " ORDER BY 1, 2",
    "SELECT t.d_year, d.d_month FROM (SELECT d_year, min(d_datekey) AS f1 FROM date"
    " GROUP BY d_year) t RIGHT JOIN date d ON d.d_datekey = t.f1 WHERE d.d_daynuminmonth = 1"
    " AND d.d_year = 1995 ORDER BY d.d_month",
    /* uncorrelated subqueries: scalar (in WHERE and in the select list),
    ** IN, NOT IN with a NULL among the rows, EXISTS, NOT EXISTS */
    "WITH r AS (SELECT c_nation, sum(lo_revenue) AS rev FROM lineorder, customer"
    " WHERE lo_custkey = c_custkey GROUP BY c_nation)"
    " SELECT c_nation FROM r WHERE rev > (SELECT max(rev) FROM r) / 2 ORDER BY 1",
    "SELECT c_nation, n * 100 / (SELECT count(*) FROM customer) AS pct FROM (SELECT c_nation,"
    " count(*) AS n FROM customer GROUP BY c_nation) t ORDER BY 1",
    "SELECT c_nation, n FROM (SELECT c_nation, count(*) AS n FROM customer GROUP BY c_nation) t"
    " WHERE c_nation IN (SELECT s_nation FROM supplier WHERE s_suppkey < 5) ORDER BY 1",
    "SELECT c_nation FROM (SELECT c_nation FROM customer GROUP BY c_nation) t"
    " WHERE c_nation NOT IN (SELECT s_nation FROM supplier WHERE s_suppkey < 9) ORDER BY 1",
    "WITH s AS (SELECT s_nation, s_suppkey FROM supplier WHERE s_suppkey < 9),"
    " j AS (SELECT s.s_nation AS x FROM s LEFT JOIN s s2 ON s.s_suppkey = s2.s_suppkey + 5)"
    " SELECT count(*), count(x) FROM j WHERE x NOT IN (SELECT s2 FROM (SELECT s.s_nation,"
    " s2.s_nation AS s2 FROM s LEFT JOIN s s2 ON s.s_suppkey = s2.s_suppkey + 5) v)",
    "SELECT count(*) FROM (SELECT c_nation FROM customer GROUP BY c_nation) t"
    " WHERE EXISTS (SELECT s_suppkey FROM supplier WHERE s_suppkey < 0)",
    "SELECT count(*) FROM (SELECT c_nation FROM customer GROUP BY c_nation) t"
    " WHERE NOT EXISTS (SELECT s_suppkey FROM supplier WHERE s_suppkey < 0)",
    /* window functions: top 3 per year through a derived table */
    "SELECT * FROM (SELECT d_year, c_nation, rev, rank() OVER (PARTITION BY d_year"
    " ORDER BY rev DESC) AS r FROM (SELECT d_year, c_nation, sum(lo_revenue) AS rev"
    " FROM lineorder, date, customer WHERE lo_orderdate = d_datekey AND lo_custkey = c_custkey"
    " AND c_region = 'EUROPE' GROUP BY d_year, c_nation) a) b WHERE r <= 3 ORDER BY d_year, r",
    /* a running total, and a window over an aggregate */
    "WITH m AS (SELECT d_yearmonthnum, sum(lo_revenue) AS rev FROM lineorder, date"
    " WHERE lo_orderdate = d_datekey GROUP BY d_yearmonthnum)"
    " SELECT d_yearmonthnum, rev, sum(rev) OVER (ORDER BY d_yearmonthnum) AS running,"
    " count(*) OVER () AS months FROM m ORDER BY 1",
    "WITH m AS (SELECT d_year, d_yearmonthnum, sum(lo_revenue) AS rev FROM lineorder, date"
    " WHERE lo_orderdate = d_datekey GROUP BY d_year, d_yearmonthnum)"
    " SELECT d_year, sum(rev) AS y, sum(sum(rev)) OVER (ORDER BY d_year) AS upto,"
    " max(sum(rev)) OVER () AS best FROM m GROUP BY d_year ORDER BY d_year",
    /* ranking, offsets, buckets, frames */
    "SELECT c_nation, n, row_number() OVER (ORDER BY n DESC, c_nation) AS rn,"
    " dense_rank() OVER (ORDER BY c_region) AS dr, lag(n) OVER (ORDER BY c_nation) AS prev,"
    " lead(c_nation, 2, 'none') OVER (ORDER BY c_nation) AS next2,"
    " ntile(4) OVER (ORDER BY c_nation) AS q,"
    " first_value(c_nation) OVER (PARTITION BY c_region ORDER BY c_nation"
    " ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) AS fv,"
    " last_value(c_nation) OVER (PARTITION BY c_region ORDER BY c_nation"
    " ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING) AS lv,"
    " min(n) OVER (PARTITION BY c_region) AS mn,"
    " sum(n) OVER (ORDER BY c_nation ROWS 2 PRECEDING) AS s3"
    " FROM (SELECT c_region, c_nation, count(*) AS n FROM customer GROUP BY c_region, c_nation) t"
    " ORDER BY c_nation",
    /* window functions on a star query's own rows and groups: the star
    ** query on the device, the windows over its result on the host */
    "SELECT c_region, row_number() OVER (ORDER BY c_region, c_custkey) AS rn FROM customer"
    " WHERE c_custkey < 30 ORDER BY rn",
    "SELECT d_yearmonthnum, sum(lo_revenue) AS rev, sum(sum(lo_revenue)) OVER (ORDER BY"
    " d_yearmonthnum) AS running FROM lineorder, date WHERE lo_orderdate = d_datekey"
    " AND d_year = 1994 GROUP BY d_yearmonthnum ORDER BY 1",
    "SELECT c_nation, count(*) AS n, rank() OVER (PARTITION BY c_region ORDER BY count(*) DESC)"
    " FROM customer GROUP BY 1, c_region ORDER BY c_region, 3, 1",
    "SELECT d_year, sum(lo_revenue), sum(lo_revenue) * 100 / max(sum(lo_revenue)) OVER () AS pct"
    " FROM lineorder, date WHERE lo_orderdate = d_datekey GROUP BY d_year ORDER BY d_year",
    /* quoted and schema-qualified names, as tools write them */
    "SELECT \"t\".\"c_region\" AS \"Region\", count(*) AS \"count\" FROM (SELECT \"c_region\""
    " FROM \"public\".\"customer\") AS \"t\" GROUP BY \"t\".\"c_region\" ORDER BY 1",
};

/* Grouping sets of star queries (planner/dag_gset.c: the device groups
** by the finest set, the host rolls up) and of queries over derived
** tables; each with ORDER BY over every column. */
static const char *const azRollup[] = {
    /* ROLLUP of two columns: sum, count, min, max, avg combined */
    "SELECT d_year, c_region, sum(lo_revenue) AS rev, count(*) AS n, min(lo_quantity),"
    " max(lo_discount), avg(lo_quantity) FROM lineorder, date, customer"
    " WHERE lo_orderdate = d_datekey AND lo_custkey = c_custkey"
    " GROUP BY ROLLUP (d_year, c_region) ORDER BY d_year, c_region",
    /* CUBE with grouping(), ordered by it */
    "SELECT c_region, s_region, grouping(c_region, s_region) AS g, grouping(s_region) AS gs,"
    " count(*) FROM lineorder, customer, supplier WHERE lo_custkey = c_custkey"
    " AND lo_suppkey = s_suppkey GROUP BY CUBE (c_region, s_region) ORDER BY g, 1, 2",
    /* GROUPING SETS with () twice (duplicate rows), HAVING over a set's groups */
    "SELECT d_year, p_mfgr, sum(lo_revenue) FROM lineorder, date, part"
    " WHERE lo_orderdate = d_datekey AND lo_partkey = p_partkey AND d_year <= 1993"
    " GROUP BY GROUPING SETS ((d_year, p_mfgr), d_year, (), ()) HAVING count(*) > 10"
    " ORDER BY 1, 2, 3",
    /* a plain key beside ROLLUP: the cross product; ordinals; a filter */
    "SELECT d_year, c_nation, c_city, sum(lo_extendedprice) FROM lineorder, date, customer"
    " WHERE lo_orderdate = d_datekey AND lo_custkey = c_custkey AND c_region = 'ASIA'"
    " AND d_year IN (1992, 1997) GROUP BY 1, ROLLUP (2, 3) ORDER BY 1, 2, 3",
    /* an expression of a column, grouped and selected; qualified and not */
    "SELECT d_year / 2 AS half, date.d_yearmonthnum % 100 AS m, count(*) FROM lineorder, date"
    " WHERE lo_orderdate = date.d_datekey AND d_year < 1994"
    " GROUP BY ROLLUP (d_year / 2, d_yearmonthnum % 100) ORDER BY 1, 2",
    /* no row passes: the grand total is one row, count 0 and sum NULL */
    "SELECT d_year, sum(lo_revenue), count(*), count(lo_tax) FROM lineorder, date"
    " WHERE lo_orderdate = d_datekey AND d_year = 1900 GROUP BY ROLLUP (d_year) ORDER BY 1",
    /* only the empty set, and a set of nothing read */
    "SELECT count(*), sum(lo_quantity) FROM lineorder GROUP BY GROUPING SETS ((), ())",
    "SELECT 1 AS one FROM lineorder WHERE lo_quantity > 40 GROUP BY ()",
    /* a window over the rolled-up groups; FILTER inside an aggregate */
    "SELECT c_region, d_year, sum(lo_revenue) FILTER (WHERE lo_discount > 5) AS r,"
    " rank() OVER (PARTITION BY grouping(c_region, d_year) ORDER BY sum(lo_revenue) DESC) AS k"
    " FROM lineorder, customer, date WHERE lo_custkey = c_custkey AND lo_orderdate = d_datekey"
    " GROUP BY ROLLUP (c_region, d_year) ORDER BY 4, 1, 2",
    /* ORDER BY and LIMIT over the sets, DISTINCT */
    "SELECT DISTINCT c_region, grouping(c_region) FROM lineorder, customer"
    " WHERE lo_custkey = c_custkey GROUP BY CUBE (c_region, c_nation) ORDER BY 1, 2 LIMIT 4",
    /* inside a CTE and a derived table, and over a derived table */
    "WITH r AS (SELECT c_region, c_nation, count(*) AS n FROM lineorder, customer"
    " WHERE lo_custkey = c_custkey GROUP BY ROLLUP (c_region, c_nation))"
    " SELECT c_region, max(n) FROM r GROUP BY c_region ORDER BY 1",
    "SELECT c_region, c_nation, max(rev), count(*), grouping(c_region, c_nation)"
    " FROM (SELECT c_region, c_nation, c_city, sum(lo_revenue) AS rev FROM lineorder, customer"
    " WHERE lo_custkey = c_custkey GROUP BY c_region, c_nation, c_city) AS virtual_table"
    " GROUP BY ROLLUP (c_region, c_nation) ORDER BY 1, 2",
    "SELECT s_region, s_nation, count(*) FROM (SELECT s_region, s_nation FROM supplier) t"
    " GROUP BY GROUPING SETS (s_region, (s_region, s_nation), CUBE (s_nation)) ORDER BY 1, 2, 3",
};

/* Subqueries in a star query's WHERE (planner/dag_semi.c, dag_gset.c):
** correlated [NOT] EXISTS decorrelated into semi and anti joins,
** uncorrelated IN, NOT IN (NULLs), EXISTS and scalar subqueries; each
** with ORDER BY over every column. */
static const char *const azSemi[] = {
    /* the anti join: customers with no order in 1997 (bench/relational) */
    "SELECT c_region, count(*) AS customers FROM customer c WHERE NOT EXISTS (SELECT 1 FROM"
    " lineorder, date WHERE lo_custkey = c.c_custkey AND lo_orderdate = d_datekey AND d_year = 1997)"
    " GROUP BY c_region ORDER BY c_region",
    /* a semi join, its correlation unqualified, rows not grouped */
    "SELECT c_name, c_city FROM customer WHERE c_custkey < 40 AND EXISTS (SELECT 1 FROM lineorder"
    " WHERE lo_custkey = c_custkey AND lo_quantity > 48) ORDER BY 1",
    /* the correlation written the other way round, beside other conditions */
    "SELECT s_nation, count(*) FROM supplier s WHERE s_region = 'ASIA' AND EXISTS (SELECT lo_orderkey"
    " FROM lineorder WHERE s.s_suppkey = lo_suppkey AND lo_discount = 10) GROUP BY s_nation ORDER BY 1",
    /* IN over a dimension's key inside a star query's aggregate */
    "SELECT d_year, sum(lo_revenue), count(*) FROM lineorder, date WHERE lo_orderdate = d_datekey"
    " AND lo_custkey IN (SELECT c_custkey FROM customer WHERE c_region = 'ASIA') GROUP BY d_year"
    " ORDER BY 1",
    /* NOT IN without NULLs, and with a NULL in the set (no row passes) */
    "SELECT p_mfgr, count(*) FROM lineorder, part WHERE lo_partkey = p_partkey AND p_category"
    " NOT IN (SELECT p_category FROM part WHERE p_size > 48) GROUP BY p_mfgr ORDER BY 1",
    "SELECT count(*) FROM lineorder WHERE lo_suppkey NOT IN"
    " (SELECT CASE WHEN s_suppkey = 1 THEN NULL ELSE s_suppkey END FROM supplier WHERE s_suppkey < 4)",
    "SELECT count(*) FROM lineorder WHERE lo_suppkey NOT IN"
    " (SELECT s_suppkey FROM supplier WHERE s_suppkey < 4)",
    /* top customers: IN over a grouped subquery with HAVING */
    "SELECT c_nation, sum(lo_revenue) FROM lineorder, customer WHERE lo_custkey = c_custkey"
    " AND lo_custkey IN (SELECT lo_custkey FROM lineorder GROUP BY lo_custkey"
    " HAVING sum(lo_revenue) > 1000000000) GROUP BY c_nation ORDER BY 1",
    /* uncorrelated EXISTS, true and false; a scalar subquery in WHERE */
    "SELECT d_year, count(*) FROM lineorder, date WHERE lo_orderdate = d_datekey AND EXISTS"
    " (SELECT 1 FROM supplier WHERE s_region = 'ASIA') GROUP BY d_year ORDER BY 1",
    "SELECT count(*), max(lo_revenue) FROM lineorder WHERE NOT EXISTS (SELECT 1 FROM customer"
    " WHERE c_custkey = 1)",
    "SELECT d_year, count(*), min(lo_quantity) FROM lineorder, date WHERE lo_orderdate = d_datekey"
    " AND lo_quantity > (SELECT avg(lo_quantity) FROM lineorder) GROUP BY d_year ORDER BY 1",
    /* beside ROLLUP; a correlated EXISTS over a derived table */
    "SELECT c_region, d_year, count(*) FROM lineorder, customer, date WHERE lo_custkey = c_custkey"
    " AND lo_orderdate = d_datekey AND lo_suppkey IN (SELECT s_suppkey FROM supplier WHERE"
    " s_region = 'EUROPE') GROUP BY ROLLUP (c_region, d_year) ORDER BY 1, 2",
    "SELECT c_nation FROM (SELECT c_nation FROM customer GROUP BY c_nation) t WHERE EXISTS"
    " (SELECT s_suppkey FROM supplier WHERE s_nation = t.c_nation) ORDER BY 1",
    /* correlated scalar subqueries, decorrelated into grouped joins */
    "SELECT p_brand1, count(*), sum(lo_quantity) FROM lineorder, part p WHERE lo_partkey = p_partkey"
    " AND p_category = 'MFGR#12' AND lo_quantity < (SELECT 0.5 * avg(lo_quantity) FROM lineorder"
    " WHERE lo_partkey = p.p_partkey) GROUP BY p_brand1 ORDER BY 1",
    "SELECT c_name, c_custkey FROM customer c WHERE c_custkey < 50 AND (SELECT max(lo_revenue) / 10000"
    " FROM lineorder WHERE lo_custkey = c.c_custkey AND lo_tax > 2) < c_custkey * 1000 ORDER BY 2",
    /* SELECT *: the columns of every FROM item, as the binder expands it */
    "SELECT * FROM supplier WHERE s_suppkey IN (SELECT lo_suppkey FROM lineorder WHERE lo_quantity = 50"
    " AND lo_discount = 0) ORDER BY s_suppkey",
    "SELECT d_year, s.* FROM lineorder, date, supplier s WHERE lo_orderdate = d_datekey AND"
    " lo_suppkey = s_suppkey AND lo_orderkey < 30 AND EXISTS (SELECT 1 FROM customer WHERE"
    " c_custkey = lo_custkey AND c_region = 'ASIA') ORDER BY 1, s_suppkey",
    /* a dimension alone: IN over another dimension's column of strings */
    "SELECT c_region, count(*) FROM customer WHERE c_region IN (SELECT s_region FROM supplier"
    " WHERE s_suppkey < 5) GROUP BY c_region ORDER BY 1",
};

/* A star query's own outer joins (planner/dag_gset.c: the core joined and
** grouped on the device, the outer-joined dimensions on the host), and
** the shapes BI tools send. */
static const char *const azOuter[] = {
    /* Metabase: fully quoted, schema-qualified, a left join under an alias */
    "SELECT \"Customer\".\"c_region\" AS \"Customer__c_region\", sum(\"public\".\"lineorder\"."
    "\"lo_revenue\") AS \"sum\" FROM \"public\".\"lineorder\" LEFT JOIN \"public\".\"customer\""
    " \"Customer\" ON \"public\".\"lineorder\".\"lo_custkey\" = \"Customer\".\"c_custkey\""
    " GROUP BY \"Customer\".\"c_region\" ORDER BY \"Customer\".\"c_region\" ASC",
    /* missing keys: NULLs, one group of them */
    "SELECT d_year, c_nation, sum(lo_revenue), count(*) FROM lineorder JOIN date ON"
    " lo_orderdate = d_datekey LEFT JOIN customer ON lo_custkey = c_custkey + 100 AND c_region = 'ASIA'"
    " WHERE d_year = 1993 GROUP BY 1, 2 ORDER BY 1, 2",
    /* RIGHT and FULL: rows of the dimension alone count once */
    "SELECT c_region, count(*), count(lo_orderkey), max(lo_quantity) FROM lineorder RIGHT JOIN customer"
    " ON lo_custkey = c_custkey AND lo_quantity > 49 GROUP BY c_region ORDER BY 1",
    "SELECT c_region, count(*), count(lo_orderkey), sum(lo_tax) FROM lineorder FULL JOIN customer ON"
    " lo_custkey = c_custkey + 250 WHERE lo_discount > 8 OR lo_discount IS NULL GROUP BY c_region ORDER BY 1",
    /* a condition on the outer side in WHERE; rows not grouped */
    "SELECT lo_orderkey, lo_linenumber, s_name FROM lineorder LEFT JOIN supplier ON lo_suppkey = s_suppkey"
    " AND s_nation = 'CHINA' WHERE lo_orderkey < 40 AND (s_name IS NULL OR s_suppkey < 10) ORDER BY 1, 2",
    /* snowflakes: customer and supplier of one order in one city, in WHERE
    ** and in an inner join's ON (planner/dag_snow.c) */
    "SELECT c_nation, d_year, sum(lo_revenue) AS revenue FROM lineorder, customer, supplier, date"
    " WHERE lo_custkey = c_custkey AND lo_suppkey = s_suppkey AND lo_orderdate = d_datekey"
    " AND c_city = s_city AND c_region = 'ASIA' GROUP BY c_nation, d_year ORDER BY d_year, revenue DESC",
    "SELECT c_nation, count(*), min(lo_orderkey) FROM lineorder JOIN customer ON lo_custkey = c_custkey"
    " JOIN supplier ON lo_suppkey = s_suppkey AND c_nation = s_nation AND s_suppkey <> c_custkey"
    " GROUP BY 1 ORDER BY 1",
    "SELECT * FROM lineorder LEFT JOIN supplier ON lo_suppkey = s_suppkey AND s_region = 'ASIA'"
    " WHERE lo_orderkey < 8 ORDER BY lo_orderkey, lo_linenumber",
    /* Grafana: a time series, GROUP BY 1 ORDER BY 1 */
    "SELECT d_yearmonthnum AS \"time\", sum(lo_revenue) AS \"revenue\" FROM lineorder, date"
    " WHERE lo_orderdate = d_datekey AND d_year = 1997 GROUP BY 1 ORDER BY 1",
};


/* Named windows (planner/dag_wname.c) over a star query's groups and over
** a derived table. */
static const char *const azNamedWindow[] = {
    "SELECT d_year, c_region, sum(lo_revenue), rank() OVER w AS r, sum(sum(lo_revenue)) OVER"
    " (v ORDER BY c_region) AS run FROM lineorder, date, customer WHERE lo_orderdate = d_datekey"
    " AND lo_custkey = c_custkey GROUP BY d_year, c_region WINDOW w AS (PARTITION BY d_year"
    " ORDER BY sum(lo_revenue) DESC), v AS (PARTITION BY d_year) ORDER BY 1, 2",
    "SELECT c_nation, n, lag(n) OVER w, first_value(c_nation) OVER (w ROWS BETWEEN 1 PRECEDING"
    " AND 1 FOLLOWING) FROM (SELECT c_nation, count(*) AS n FROM customer GROUP BY c_nation) t"
    " WINDOW w AS (ORDER BY n, c_nation) ORDER BY n, c_nation",
};

/* Errors PostgreSQL raises, and where starq puts them. */
typedef struct rel_error rel_error;
struct rel_error {
  const char *zSql, *zState, *zAt;  /* zAt: the text the position points at */
  int bStarqOnly;          /* starq refuses it (0A000); PostgreSQL runs it */
};
static const rel_error aSetopError[] = {
    {"SELECT c_city, c_nation FROM customer UNION SELECT s_city FROM supplier", "42601",
     "s_city FROM supplier", 0},
    {"SELECT c_city FROM customer UNION SELECT s_suppkey FROM supplier", "42804",
     "s_suppkey FROM", 0},
    {"SELECT c_city FROM customer UNION SELECT s_city FROM supplier ORDER BY c_city || 'x'",
     "0A000", "c_city || 'x'", 0},
    {"SELECT c_city FROM customer UNION SELECT s_city FROM supplier ORDER BY s_city", "42703",
     "s_city", 0},
    {"SELECT c_city FROM customer UNION SELECT s_city FROM supplier ORDER BY 2", "42P10", "2", 0},
    {"SELECT c_city FROM customer UNION SELECT s_city FROM supplier LIMIT -1", "2201W", "-1", 0},
};

/* Runs azSql[0..n) on t and in PostgreSQL p: the same rows in the same
** order, the same column names. */
static void rel_check_queries(exectest *t, pgref *p, const char *const *azSql, size_t n) {
  char zErr[2048], zDiff[2048];
  for (size_t i = 0; i < n; i++) {
    pgref_result *pPg;
    refdb_result *pGot;
    sql_error e;
    CALL_OK(pgref_query(p, azSql[i], &pPg, zErr, sizeof(zErr)));
    if (exectest_run(t, azSql[i], &pGot, &e) != 0) {
      FAIL("starq: %s: %s %s", azSql[i], e.zState, e.zMsg);
    }
    if (refdb_result_compare(pPg->pRows, pGot, 1, zDiff, sizeof(zDiff)) != 0) {
      FAIL("PostgreSQL and starq differ on %s\n%s", azSql[i], zDiff);
    }
    /* The leftmost operand names the columns. */
    for (int c = 0; c < pPg->pRows->nCol; c++) {
      ASSERT_STR_EQ(pGot->azName[c], pPg->pRows->azName[c]);
    }
    pgref_result_free(pPg);
    refdb_result_free(pGot);
  }
}

/* Runs each of a[0..n) on t and in PostgreSQL p: both fail with the same
** SQLSTATE (and PostgreSQL's words where PostgreSQL has them: not for
** what starq refuses), starq's positioned at the text zAt. */
static void rel_check_errors(exectest *t, pgref *p, const rel_error *a, size_t n) {
  char zErr[2048];
  for (size_t i = 0; i < n; i++) {
    exec_result r;
    sql_error e;
    const char *zSql = a[i].zSql;
    int bRefused = a[i].bStarqOnly;
    /* What starq refuses, PostgreSQL runs; the rest fails there too. */
    if ((pgref_exec(p, zSql, zErr, sizeof(zErr)) == 0) != bRefused ||
        (!bRefused && strncmp(zErr, a[i].zState, 5) != 0)) {
      FAIL("PostgreSQL on %s: %s", zSql, bRefused ? zErr : "no error");
    }
    ASSERT(exectest_exec(t, zSql, &r, &e) != 0);
    exec_result_free(&r);
    if (strcmp(e.zState, a[i].zState) != 0) {
      FAIL("%s: %s %s, PostgreSQL: %s", zSql, e.zState, e.zMsg, zErr);
    }
    /* The same words as PostgreSQL's. */
    if (!bRefused) ASSERT_STR_EQ(e.zMsg, zErr + 7);
    if (a[i].zAt == NULL) continue;          /* an error of the run: no position */
    ASSERT(e.iOffset >= 0);
    if (strncmp(zSql + e.iOffset, a[i].zAt, strlen(a[i].zAt)) != 0) {
      FAIL("%s: %s positioned at \"%s\"", zSql, e.zState, zSql + e.iOffset);
    }
  }
}

static void setop_check_all(exectest *t, pgref *p) {
  rel_check_queries(t, p, azSetop, sizeof(azSetop) / sizeof(azSetop[0]));
  rel_check_errors(t, p, aSetopError, sizeof(aSetopError) / sizeof(aSetopError[0]));
}

/* Runs azSql[0..n) through starqd (its device worker, the wire, the
** server's text) and in PostgreSQL p: the same rows in the same order. */
static void rel_check_starqd(pgref *p, const char *const *azSql, size_t n) {
  starqd_proc d;
  PGconn *c;
  char zErr[2048], zDiff[2048];
  starqd_start(&d, "data", NULL);
  c = starqd_connect(&d);
  for (size_t i = 0; i < n; i++) {
    PGresult *res = PQexec(c, azSql[i]);
    pgref_result *pPg, *pWire;
    if (PQresultStatus(res) != PGRES_TUPLES_OK) FAIL("starqd: %s: %s", azSql[i], PQerrorMessage(c));
    CALL_OK(pgref_query(p, azSql[i], &pPg, zErr, sizeof(zErr)));
    pWire = pgref_result_from_pg(res);
    ASSERT(pWire != NULL);
    if (pgref_result_compare(pPg, pWire, 1, 0, zDiff, sizeof(zDiff)) != 0) {
      FAIL("PostgreSQL and starqd differ on %s\n%s", azSql[i], zDiff);
    }
    pgref_result_free(pWire);
    pgref_result_free(pPg);
    PQclear(res);
  }
  PQfinish(c);
  ASSERT_EQ(starqd_stop(&d, SIGTERM), 0);
}

/* Checks one list of the file against PostgreSQL 15, on the CPU backend
** and on the CUDA backend over the mock driver. */
static void rel_check_backends(void (*xCheck)(exectest *t, pgref *p)) {
  const char *argv[] = {"starq-gen", "--sf", "0.01", "--out", "tbl", "-q", NULL};
  exectest t;
  pgref *p;
  char zErr[2048];
  exectest_open(&t, "0.01");
  test_run_ok(argv);
  CALL_OK(pgref_start(&p, "pg", zErr, sizeof(zErr)));
  CALL_OK(pgref_load_ssb(p, "tbl", zErr, sizeof(zErr)));
  xCheck(&t, p);
  exectest_close(&t);
  exectest_open_mock(&t, "0.01");
  xCheck(&t, p);
  exectest_close(&t);
  pgref_stop(p);
}

/* A test of list azQ's answers and aErr's errors against PostgreSQL 15,
** on both backends. */
#define REL_PG_TEST(zName, azQ, aErr)                                       \
  static void zName##_check_all(exectest *t, pgref *p) {                    \
    rel_check_queries(t, p, azQ, sizeof(azQ) / sizeof(azQ[0]));             \
    rel_check_errors(t, p, aErr, sizeof(aErr) / sizeof(aErr[0]));           \
  }                                                                         \
  TEST_IMPL(zName##_pg) {                                                   \
    rel_check_backends(zName##_check_all);                                  \
    return 0;                                                               \
  }

/* Errors over derived tables and CTEs; what starq does not run yet stays
** 0A000 at the construct (PostgreSQL runs those: only starq's state is
** checked). */
static const rel_error aDerivedError[] = {
    {"SELECT x FROM (SELECT c_region FROM customer) t", "42703", "x FROM", 0},
    {"SELECT * FROM (SELECT c_region, c_nation FROM customer) t (a, b, c)", "42P10",
     "t (a, b, c)", 0},
    {"WITH a AS (SELECT c_region FROM customer) SELECT * FROM b", "42P01", "b", 0},
    {"SELECT * FROM customer, LATERAL (SELECT c_custkey) t", "0A000", "LATERAL", 1},
    {"WITH a AS (SELECT c_region FROM customer) SELECT c_region FROM a"
     " WHERE row_number() OVER (ORDER BY c_region) > 1", "42P20", "row_number", 0},
    {"SELECT c_nation, rank() OVER (ORDER BY c_custkey) FROM customer GROUP BY c_nation",
     "42803", "c_custkey)", 0},
    {"SELECT c_nation FROM (SELECT c_nation FROM customer GROUP BY c_nation) t WHERE EXISTS"
     " (SELECT s_suppkey FROM supplier WHERE s_nation = t.c_nation AND s_city > t.c_nation)", "0A000",
     "t.c_nation", 1},
    {"SELECT (SELECT c_nation FROM customer) FROM (SELECT d_year FROM date) t", "21000", NULL, 0},
    {"SELECT * FROM (SELECT c_region FROM customer) t WHERE c_region IN"
     " (SELECT s_suppkey FROM supplier)", "42883", "IN", 0},
    {"SELECT * FROM (SELECT c_region FROM customer) t WHERE c_region ="
     " (SELECT s_region, s_nation FROM supplier)", "42601", "(SELECT s_region", 0},
    {"WITH RECURSIVE a AS (SELECT c_region FROM customer) SELECT * FROM a", "0A000", "WITH", 1},
    {"SELECT c_region, rank() OVER x FROM customer GROUP BY c_region WINDOW w AS (ORDER BY c_region)",
     "42704", "x FROM", 0},
    {"SELECT c_region, rank() OVER (w ORDER BY c_region) FROM customer GROUP BY c_region"
     " WINDOW w AS (ORDER BY c_region)", "42P20", "(w ORDER", 0},
    {"SELECT c_region, rank() OVER (w PARTITION BY c_region) FROM customer GROUP BY c_region"
     " WINDOW w AS (ORDER BY c_region)", "42P20", "(w PARTITION", 0},
    {"SELECT c_region, rank() OVER (w ORDER BY c_region) FROM customer GROUP BY c_region"
     " WINDOW w AS (ROWS 1 PRECEDING)", "42P20", "(w ORDER", 0},
    {"SELECT c_region FROM customer WINDOW w AS (), w AS ()", "42P20", NULL, 0},
};

/* Errors of grouping sets and grouping(), with PostgreSQL's words. */
static const rel_error aRollupError[] = {
    {"SELECT d_year, c_region, count(*) FROM lineorder, date, customer WHERE lo_orderdate = d_datekey"
     " AND lo_custkey = c_custkey GROUP BY ROLLUP (d_year)", "42803", "c_region, count", 0},
    {"SELECT d_year, count(*) FROM lineorder, date WHERE lo_orderdate = d_datekey"
     " GROUP BY CUBE (d_year, nosuch)", "42703", "nosuch", 0},
    {"SELECT d_year, count(*) FROM lineorder, date WHERE lo_orderdate = d_datekey"
     " GROUP BY ROLLUP (d_year, 3)", "42P10", "3)", 0},
    {"SELECT c_region FROM customer WHERE grouping(c_region) = 0", "42803", "grouping", 0},
    {"SELECT c_region, grouping(c_nation) FROM lineorder, customer WHERE lo_custkey = c_custkey"
     " GROUP BY ROLLUP (c_region)", "42803", "c_nation)", 0},
    {"SELECT c_region, count(DISTINCT lo_custkey) FROM lineorder, customer"
     " WHERE lo_custkey = c_custkey GROUP BY ROLLUP (c_region)", "0A000", "count", 1},
};

/* Correlations starq leaves as written stay 0A000 (PostgreSQL runs them). */
static const rel_error aSemiError[] = {
    {"SELECT c_name FROM customer c WHERE EXISTS (SELECT 1 FROM lineorder WHERE"
     " lo_custkey = c.c_custkey AND lo_quantity > c.c_custkey)", "0A000", "c.c_custkey AND", 1},
    {"SELECT c_name FROM customer c WHERE c_custkey IN (SELECT lo_custkey FROM lineorder WHERE"
     " lo_quantity = c.c_custkey)", "0A000", "c.c_custkey)", 1},
    {"SELECT *, * FROM customer WHERE c_custkey IN (SELECT lo_custkey FROM lineorder)", "0A000",
     "* FROM", 1},
    /* count over no row is 0, not NULL: not joined, left correlated */
    {"SELECT c_name FROM customer c WHERE 3 < (SELECT count(*) FROM lineorder WHERE"
     " lo_custkey = c.c_custkey)", "0A000", "c.c_custkey)", 1},
    {"SELECT c_name FROM customer WHERE c_custkey IN (SELECT lo_custkey, lo_suppkey FROM lineorder)",
     "42601", "IN", 0},
};

REL_PG_TEST(semi, azSemi, aSemiError)

static const rel_error aOuterError[] = {
    {"SELECT c_region, count(c_name) FROM lineorder LEFT JOIN customer ON lo_custkey = c_custkey"
     " GROUP BY c_region", "0A000", "count", 1},
    {"SELECT count(*) FROM customer LEFT JOIN lineorder ON lo_custkey = c_custkey", "0A000", "lineorder ON", 1},
    {"SELECT count(*) FROM lineorder LEFT JOIN customer ON lo_custkey = c_custkey JOIN date"
     " ON lo_orderdate = d_datekey", "0A000", "date", 1},
};

REL_PG_TEST(outer, azOuter, aOuterError)

REL_PG_TEST(rollup, azRollup, aRollupError)

static void derived_check_all(exectest *t, pgref *p) {
  rel_check_queries(t, p, azDerived, sizeof(azDerived) / sizeof(azDerived[0]));
  rel_check_queries(t, p, azNamedWindow, sizeof(azNamedWindow) / sizeof(azNamedWindow[0]));
  rel_check_errors(t, p, aDerivedError, sizeof(aDerivedError) / sizeof(aDerivedError[0]));
}

TEST_IMPL(derived_pg) {
  rel_check_backends(derived_check_all);
  return 0;
}

/* Through starqd: results of host tails cross the device worker's wire
** (numeric and dates as text, strings carried by the result). */
TEST_IMPL(relational_starqd) {
  const char *argv[] = {"starq-gen", "--sf", "0.01", "--out", "tbl", "-q", NULL};
  exectest t;
  pgref *p;
  char zErr[2048];
  exectest_open(&t, "0.01");
  test_run_ok(argv);
  CALL_OK(pgref_start(&p, "pg", zErr, sizeof(zErr)));
  CALL_OK(pgref_load_ssb(p, "tbl", zErr, sizeof(zErr)));
  exectest_close(&t);
  rel_check_starqd(p, azSetop, sizeof(azSetop) / sizeof(azSetop[0]));
  rel_check_starqd(p, azDerived, sizeof(azDerived) / sizeof(azDerived[0]));
  rel_check_starqd(p, azRollup, sizeof(azRollup) / sizeof(azRollup[0]));
  rel_check_starqd(p, azSemi, sizeof(azSemi) / sizeof(azSemi[0]));
  rel_check_starqd(p, azOuter, sizeof(azOuter) / sizeof(azOuter[0]));
  pgref_stop(p);
  return 0;
}

TEST_IMPL(setop_pg) {
  rel_check_backends(setop_check_all);
  return 0;
}

/* Fails unless text z holds every string of azWant (NULL-ended). */
static void rel_expect_all(const char *z, const char *const *azWant) {
  for (int i = 0; azWant[i] != NULL; i++) {
    if (strstr(z, azWant[i]) == NULL) FAIL("EXPLAIN lacks \"%s\":\n%s", azWant[i], z);
  }
}

/* EXPLAIN shows the tail on top and each pipeline under its input; a
** plain star query stays one pipeline with no tail, and a set
** operation's DESCRIBE has the resolved types. */
TEST_IMPL(setop_explain) {
  exectest t;
  exec_options opt;
  char *z;
  exec_result r;
  sql_error e;
  memset(&opt, 0, sizeof(opt));
  exectest_open(&t, "0.01");
  z = exectest_explain_text(t.pEngine, &opt,
                            "SELECT c_city FROM customer WHERE c_custkey < 10 UNION ALL"
                            " SELECT s_city FROM supplier ORDER BY 1 LIMIT 3", 0);
  ASSERT(strncmp(z, "Limit  (host, rows=3)", 21) == 0);
  rel_expect_all(z, (const char *const[]){"\n  ->  Sort  (host", "->  Union All  (host",
                                          "->  Pipeline Result 1  (host", "->  Pipeline Result 2  (host",
                                          "Pipeline 1 (device)", "Pipeline 2 (device)", "Backend: ",
                                          NULL});
  free(z);
  /* A CTE read twice: one shared node, its pipeline under it. */
  z = exectest_explain_text(t.pEngine, &opt,
                            "WITH y AS (SELECT d_year, count(*) AS n FROM date GROUP BY d_year)"
                            " SELECT a.d_year FROM y a JOIN y b ON a.d_year = b.d_year", 0);
  ASSERT(strncmp(z, "Project  (host", 14) == 0);
  rel_expect_all(z, (const char *const[]){"->  Hash Join  (host", "->  CTE Scan (y)  (host",
                                          "Pipeline 1 (device)", NULL});
  ASSERT(strstr(z, "Pipeline 2") == NULL);
  free(z);
  /* A comma join is hashed on WHERE's equalities; the table beside the
  ** derived table is a pipeline of its own. */
  z = exectest_explain_text(t.pEngine, &opt,
                            "SELECT c_name FROM (SELECT lo_custkey FROM lineorder GROUP BY lo_custkey) t,"
                            " customer WHERE t.lo_custkey = c_custkey", 0);
  rel_expect_all(z, (const char *const[]){"->  Hash Join  (host", "Pipeline 1 (device)",
                                          "Pipeline 2 (device)", NULL});
  free(z);
  /* A subquery's plan is listed after the tree, its pipeline under it. */
  z = exectest_explain_text(t.pEngine, &opt,
                            "SELECT c_nation FROM (SELECT c_nation FROM customer GROUP BY c_nation) t"
                            " WHERE c_nation IN (SELECT s_nation FROM supplier)", 0);
  rel_expect_all(z, (const char *const[]){"->  Filter  (host", "\n  SubPlan 1 (ANY)\n",
                                          "Pipeline 1 (device)", "Pipeline 2 (device)", NULL});
  free(z);
  /* ROLLUP: the device's finest grouping under the host's sets; a
  ** NOT EXISTS: the key set's pipeline as a subplan. */
  z = exectest_explain_text(t.pEngine, &opt,
                            "SELECT d_year, c_region, sum(lo_revenue) FROM lineorder, date, customer"
                            " WHERE lo_orderdate = d_datekey AND lo_custkey = c_custkey"
                            " GROUP BY ROLLUP (d_year, c_region)", 0);
  rel_expect_all(z, (const char *const[]){"->  HashAggregate of 3 grouping sets  (host",
                                          "->  Pipeline Result 1  (host", "Pipeline 1 (device)",
                                          "keys: date.d_year, customer.c_region", NULL});
  free(z);
  z = exectest_explain_text(t.pEngine, &opt,
                            "SELECT c_region, count(*) FROM customer c WHERE NOT EXISTS (SELECT 1 FROM"
                            " lineorder WHERE lo_custkey = c.c_custkey AND lo_quantity > 49) GROUP BY 1", 0);
  rel_expect_all(z, (const char *const[]){"->  Filter  (host", "SubPlan 1 (ALL)", "Pipeline 1 (device)",
                                          "Pipeline 2 (device)", NULL});
  free(z);
  z = exectest_explain_text(t.pEngine, &opt, "SELECT count(*) FROM lineorder", 0);
  ASSERT(strstr(z, "Pipeline") == NULL);
  ASSERT(strstr(z, "(host") == NULL);
  free(z);
  /* DESCRIBE: the leftmost names, the resolved types. */
  if (exectest_request(t.pEngine, ENGINE_DESCRIBE, 0, &opt,
                       "SELECT lo_quantity AS q, c_name FROM lineorder, customer"
                       " WHERE lo_custkey = c_custkey"
                       " UNION SELECT lo_orderkey, s_name FROM lineorder, supplier"
                       " WHERE lo_suppkey = s_suppkey",
                       &r, &e) != 0) {
    FAIL("DESCRIBE: %s %s", e.zState, e.zMsg);
  }
  ASSERT_EQ(r.nCol, 2);
  ASSERT_STR_EQ(r.aCol[0].zName, "q");
  ASSERT_EQ(r.aCol[0].type.eId, COLTYPE_BIGINT);
  ASSERT_EQ(r.nRow, 0);
  exec_result_free(&r);
  /* EXPLAIN ANALYZE runs once and gives the tail's actual rows. */
  {
    if (exectest_request(t.pEngine, ENGINE_EXPLAIN, ENGINE_EXPLAIN_ANALYZE, &opt,
                         "SELECT c_region FROM customer UNION SELECT s_region FROM supplier", &r,
                         &e) != 0) {
      FAIL("EXPLAIN ANALYZE: %s %s", e.zState, e.zMsg);
    }
    {
      strbuf s;
      strbuf_init(&s);
      for (int64_t i = 0; i < r.nRow; i++) {
        exec_result_text(&r, i, 0, &s);
        strbuf_puts(&s, "\n");
      }
      ASSERT(strstr(strbuf_str(&s), "Union  (host") != NULL);
      ASSERT(strstr(strbuf_str(&s), "actual rows=5 loops=1") != NULL);
      strbuf_free(&s);
    }
    exec_result_free(&r);
  }
  exectest_close(&t);
  return 0;
}
