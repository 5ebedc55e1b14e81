-- Casts between text and the other types, with PostgreSQL's errors and
-- positions; GROUP BY a rounding function; long OR / AND chains.
SELECT '12'::int AS a, '  -7 '::bigint AS b, '1.50'::numeric(5,2) AS c, '2.5e3'::float8 AS d, '1997-03-04'::date AS e, CAST('x' AS char(3)) || '|' AS f;
SELECT CAST(42 AS text) AS t, 42::varchar(1) AS v, 'abc'::char(2) AS c, (-5)::text || 'x' AS n, DATE '1999-12-31'::text AS dt;
SELECT d_year::text AS y, d_year::numeric(6,1) AS n, d_year::float8 AS f, count(*) FROM date WHERE d_year < 1994 GROUP BY d_year ORDER BY d_year;
SELECT lo_quantity::text AS q, count(*) FROM lineorder WHERE lo_quantity < 12 GROUP BY 1 ORDER BY 1;
SELECT id, i2::varchar(3) AS v, s::char(6) || '|' AS c, upper(s::char(6)) || '|' AS u FROM vals WHERE id < 9 ORDER BY id;
\set VERBOSITY terse
SELECT 'abc'::int;
SELECT '99999999999'::int;
SELECT '12.345'::numeric(4,2);
SELECT '2024-02-30'::date;
SELECT '1e400'::float8;
SELECT ''::bigint;
SELECT count(*) FROM lineorder WHERE lo_shipmode > 3;
SELECT c_name || 1 || c_nation FROM customer WHERE c_custkey < 2;
SELECT lo_quantity || lo_tax FROM lineorder;
\set VERBOSITY default
-- GROUP BY a rounding function: of an integer (the integer is the key)
-- and of a NUMERIC whose range the statistics bound
SELECT floor(lo_revenue / 100000) AS f, count(*) FROM lineorder GROUP BY floor(lo_revenue / 100000) ORDER BY f LIMIT 4;
SELECT round(lo_extendedprice / 1000.0) AS r, count(*) FROM lineorder GROUP BY round(lo_extendedprice / 1000.0) ORDER BY r DESC LIMIT 3;
SELECT round(lo_quantity / 10.0) AS r, count(*), sum(lo_quantity) FROM lineorder GROUP BY 1 ORDER BY 1;
SELECT ceil(lo_discount * 1.5) AS c, trunc(lo_tax / 3) AS t, count(*) FROM lineorder GROUP BY 1, 2 ORDER BY 1, 2 LIMIT 6;
SELECT d_year, floor(d_daynuminyear / 100.0) AS h, count(*) FROM date GROUP BY d_year, 2 HAVING count(*) > 90 ORDER BY 1, 2 LIMIT 5;
-- OR / AND chains of one column's comparisons: one IN list however long
SELECT count(*) FROM lineorder WHERE lo_quantity = 1 OR lo_quantity = 2 OR lo_quantity = 3 OR lo_quantity = 4 OR lo_quantity = 5 OR lo_quantity = 6 OR lo_quantity = 7 OR lo_quantity = 8 OR lo_quantity = 9 OR lo_quantity = 10 OR lo_quantity = 11 OR lo_quantity = 12 OR lo_quantity = 13 OR lo_quantity = 14 OR lo_quantity = 15 OR lo_quantity = 16 OR lo_quantity = 17;
SELECT count(*) FROM lineorder WHERE lo_quantity = 1 OR lo_discount = 2 OR lo_quantity = 3 OR lo_quantity = 4 OR lo_quantity = 5 OR lo_quantity = 6 OR lo_quantity = 7 OR lo_quantity = 8 OR lo_quantity = 9 OR lo_quantity = 10 OR lo_quantity = 11 OR lo_quantity = 12 OR lo_quantity = 13 OR lo_quantity = 14 OR lo_quantity = 15 OR lo_quantity = NULL OR 17 = lo_quantity;
SELECT id, i2 <> 0 AND i2 <> 1 AND i2 <> 2 AND i2 <> 3 AND i2 <> 4 AND i2 <> 5 AND i2 <> 6 AND i2 <> 7 AND i2 <> 8 AND i2 <> 9 AND i2 <> 10 AND i2 <> 11 AND i2 <> 12 AND i2 <> 13 AND i2 <> 14 AND i2 <> 15 AND i2 <> -7 AS x FROM vals ORDER BY id;
SELECT count(*) FROM customer WHERE c_nation = 'A' OR c_nation = 'B' OR c_nation = 'C' OR c_nation = 'D' OR c_nation = 'E' OR c_nation = 'F' OR c_nation = 'G' OR c_nation = 'H' OR c_nation = 'I' OR c_nation = 'J' OR c_nation = 'K' OR c_nation = 'L' OR c_nation = 'M' OR c_nation = 'N' OR c_nation = 'PERU' OR c_nation = 'CHINA';
