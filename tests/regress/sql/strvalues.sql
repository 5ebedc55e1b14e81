-- String-valued expressions as outputs, GROUP BY and ORDER BY keys: ||,
-- casts to text, string functions of dictionary columns and of small
-- integer ranges (planner/strval.c's maps), with NULLs and UTF-8.
SELECT id, upper(s) AS us, lower(t) AS lt, s || '/' || t AS st, t || id AS tid FROM vals ORDER BY id;
SELECT id, lpad(s, 6, '*') AS l, rpad(s, 6) || '|' AS r, lpad(t, 2) AS l2, rpad(s, 3, '') AS r0 FROM vals ORDER BY id;
SELECT id, initcap(t || ' x-y zZ') AS ic, reverse(s) AS rev, md5(s) AS m FROM vals ORDER BY id;
SELECT id, concat(s, '-', id, NULL, t) AS c, concat_ws('|', s, t, id) AS cw, concat_ws(NULL, s) AS cn FROM vals ORDER BY id;
SELECT id, split_part(t, ' ', 2) AS p2, split_part(s, 'a', -1) AS pl, split_part(s, '', 1) AS pe, repeat(s, 2) AS rp FROM vals ORDER BY id;
SELECT id, substring(s from 2 for 3) || left(t, 1) AS x, replace(upper(s), 'A', '@') AS y, btrim(t) || '.' AS z FROM vals ORDER BY id;
SELECT id, cast(id AS text) || ':' || s AS k, i2::text || 'x' AS v, cast(s AS char(4)) AS c4, s::varchar(2) AS v2 FROM vals ORDER BY id;
SELECT 'a' || 'b' AS ab, 'x' || NULL AS xn, concat('p', 1, 'q') AS c, concat('x'::char(3), '|') AS cc, concat_ws('x'::char(2), 1, 2) AS cw, 'x'::char(3) || '|' AS cb;
SELECT s || t AS st, count(*) FROM vals GROUP BY s || t ORDER BY st NULLS FIRST;
SELECT upper(s) AS u, min(id), max(id) FROM vals GROUP BY upper(s) ORDER BY u DESC;
SELECT min(upper(t)) AS lo, max(s || '!') AS hi FROM vals;
-- text of values of wide ranges, outputs only: made on the host
SELECT id, i8::text AS a, 'v=' || i4 AS b, n12::text AS c, d::text || '.' AS e, i4::varchar(3) AS f, i8 || '' AS g FROM vals ORDER BY id;
SELECT lo_orderkey, lo_linenumber, lo_revenue::text AS r, 'k' || lo_orderkey AS k, lo_orderdate::text || '!' AS d FROM lineorder WHERE lo_orderkey < 3 ORDER BY lo_orderkey, lo_linenumber;
SELECT lo_orderdate::text AS d, sum(lo_quantity) FROM lineorder WHERE lo_orderkey < 10 GROUP BY lo_orderdate ORDER BY lo_orderdate;
-- SSB: the group key a map of one or two dictionaries, or of an integer
SELECT upper(c_region) AS r, count(*) FROM customer GROUP BY upper(c_region) ORDER BY r;
SELECT lower(c_city) AS city, count(*) FROM customer WHERE c_nation = 'PERU' GROUP BY lower(c_city) ORDER BY city;
SELECT c_nation || '/' || s_nation AS pair, sum(lo_revenue) AS rev FROM lineorder, customer, supplier WHERE lo_custkey = c_custkey AND lo_suppkey = s_suppkey AND c_region = 'ASIA' AND s_region = 'ASIA' GROUP BY c_nation || '/' || s_nation ORDER BY pair LIMIT 8;
SELECT cast(d_year AS text) || '-' || d_month AS ym, sum(lo_revenue) AS rev FROM lineorder, date WHERE lo_orderdate = d_datekey AND d_year = 1997 GROUP BY cast(d_year AS text) || '-' || d_month ORDER BY ym;
SELECT d_year, upper(left(d_month, 3)) AS mon, count(*) FROM date WHERE d_year < 1993 GROUP BY d_year, upper(left(d_month, 3)) ORDER BY d_year, mon;
SELECT initcap(lower(p_color)) AS color, count(*) FROM part WHERE p_size = 3 GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 5;
SELECT split_part(c_phone, '-', 1) AS cc, count(*) FROM customer GROUP BY 1 ORDER BY 1 LIMIT 5;
SELECT c_custkey, lpad(c_nation, 12, '.') || md5(c_city) AS x FROM customer ORDER BY c_custkey LIMIT 3;
-- errors: no operator, PostgreSQL's field position
\set VERBOSITY terse
SELECT id || i2 FROM vals;
SELECT split_part(s, ',', 0) FROM vals;
SELECT concat_ws(1, s) FROM vals;
