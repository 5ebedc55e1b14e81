-- String comparisons anywhere: inside CASE, NOT, OR across columns and
-- tables, as outputs; string literals, NULL and CASEs of them as outputs.
SELECT id, s = 'a' OR i4 > 5 AS x FROM vals ORDER BY id;
SELECT id, s > 'm' AS late, NOT (s LIKE 'm%') AS not_m FROM vals ORDER BY id;
SELECT id, s IN ('a', 'z') AND t = 'A' AS both_ FROM vals ORDER BY id;
SELECT id, s = 'zero' OR id > 100 OR s IS NULL AS any_ FROM vals ORDER BY id;
SELECT id, CASE WHEN s > 'm' THEN 'late' WHEN s IS NULL THEN 'none' ELSE 'early' END AS k FROM vals ORDER BY id;
SELECT id, CASE WHEN t = 'A' THEN 1 WHEN t LIKE '%z%' THEN 2 END AS k FROM vals ORDER BY id;
SELECT id FROM vals WHERE s = 'a' OR i4 = 3 ORDER BY id;
SELECT id FROM vals WHERE NOT (s = 'max' OR t = 'MIN') ORDER BY id;
SELECT 'all' AS label, count(*) FROM vals;
SELECT NULL AS n, 'lit' AS l, id FROM vals WHERE id < 3 ORDER BY id;
SELECT 'a' AS x, NULL AS y, 2 AS z;
SELECT sum(CASE WHEN c_region = 'ASIA' THEN lo_revenue ELSE 0 END) AS asia FROM lineorder, customer WHERE lo_custkey = c_custkey;
SELECT count(*) FROM lineorder, customer WHERE lo_custkey = c_custkey AND (c_nation = 'PERU' OR lo_quantity = 1);
SELECT count(*) FROM lineorder, customer, supplier WHERE lo_custkey = c_custkey AND lo_suppkey = s_suppkey AND (c_nation = 'CHINA' OR s_nation = 'CHINA');
SELECT d_year, CASE WHEN d_year < 1995 THEN 'early' ELSE 'late' END AS half, sum(lo_revenue) FROM lineorder, date WHERE lo_orderdate = d_datekey GROUP BY d_year ORDER BY d_year;
